/**
 * What the retrieval benches store: synthetic models of about 1,000 entities
 * ({@link syntheticModel}) and package versions written as a publish writes
 * them, then indexed by `indexVersion` ({@link storeIndexedVersion}), without
 * compiling anything.
 * @module
 */
import type { AppContext } from "../../src/context.ts";
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import { insertModelMetadata } from "../../src/models/store.ts";
import { indexVersion, type IndexReport } from "../../src/retrieval/index/indexer.ts";
import type { IndexedValue } from "../../src/retrieval/index/indexed_values.ts";
import { dim, msr, source, view } from "./retrieval_packages.ts";

/** Entities of one {@link syntheticModel}, about. */
export const PER_PACKAGE = 1_000;

const SUBJECTS = ["order", "shipment", "customer", "product", "flight", "airport", "employee", "invoice", "payment", "ticket", "session", "campaign", "store", "supplier", "contract", "claim", "visit", "account", "device", "subscription"];
const ATTRIBUTES = ["id", "dt", "status", "type", "amt", "qty", "region", "country", "city", "category", "channel", "owner", "cost", "price", "score", "duration_mins", "created_at", "updated_at", "name", "code", "segment", "tier", "source", "weight_kg", "discount_pct"];
const MEASURES = ["count", "total_amt", "avg_amt", "avg_duration", "pct_late", "revenue", "margin", "max_score", "distinct_owners", "cancel_rate"];
const STATUS_VALUES = ["open", "closed", "pending", "cancelled", "shipped", "delivered", "returned", "on hold"];

/** One model of about {@link PER_PACKAGE} entities and its indexed status values; `seed` varies the names so models differ. */
export function syntheticModel(seed: number): { model: ModelMetadata; values: Record<string, string[]> } {
  const sources = [];
  const values: Record<string, string[]> = {};
  let n = 0;
  for (let i = 0; n < PER_PACKAGE; i++) {
    const subject = SUBJECTS[(i + seed) % SUBJECTS.length]!;
    const name = `${subject}_${seed}_${i}`;
    const fields = [
      ...ATTRIBUTES.map((a) => dim(`${subject}_${a}`, a.endsWith("dt") || a.endsWith("_at") ? "date" : "string", `The ${a.replace(/_/g, " ")} of the ${subject}`, a === "status")),
      ...MEASURES.map((m) => msr(`${subject}_${m}`, `${m.replace(/_/g, " ")} over ${subject}s`)),
      view(`${subject}_overview`, `Summary of ${subject}s`),
      view(`${subject}_by_month`),
    ];
    sources.push(source(name, `Synthetic ${subject} data`, fields));
    values[`${name}.${subject}_status`] = STATUS_VALUES;
    n += fields.length + 1;
  }
  return { model: { modelPath: `synthetic_${seed}.malloy`, sources, queries: [] }, values };
}

/** A version to store: package `name` (version 1.0.0, latest) in environment `envId`, its models and indexed values by `source.field`. */
export interface StoredVersion {
  envId: string;
  name: string;
  models: ModelMetadata[];
  values: Record<string, string[]>;
}

/** Stores a package version as a publish does (one transaction), then indexes it; the indexer's report. */
export async function storeIndexedVersion(ctx: AppContext, v: StoredVersion): Promise<IndexReport> {
  const sha = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${v.envId}/${v.name}`))), (b) => b.toString(16).padStart(2, "0")).join("");
  const version = await ctx.sql.begin(async (tx) => {
    const [pkg] = await tx`INSERT INTO packages (env_id, name) VALUES (${v.envId}, ${v.name}) RETURNING id`;
    await tx`INSERT INTO package_blobs (sha256, size, chunks) VALUES (${sha}, 0, 0) ON CONFLICT DO NOTHING`;
    const [row] = await tx`INSERT INTO package_versions (package_id, version_id, blob_sha256) VALUES (${pkg!.id as string}, '1.0.0', ${sha}) RETURNING id`;
    await tx`UPDATE packages SET latest_version = ${row!.id as string} WHERE id = ${pkg!.id as string}`;
    await insertModelMetadata(tx, { version: row!.id as string, packageId: pkg!.id as string, envId: v.envId }, v.models);
    return row!.id as string;
  });
  const given = new Map<string, IndexedValue[]>();
  for (const m of v.models) {
    for (const [key, list] of Object.entries(v.values)) given.set(`${m.modelPath}#${key}`, list.map((value, i) => ({ value, count: list.length - i })));
  }
  return await indexVersion(ctx, version, { values: given });
}
