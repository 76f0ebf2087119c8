/**
 * get_context latency at 1,000, 10,000 and 50,000 entities in environment
 * scope, through the real search (permissions and scope in SQL, stored
 * embeddings read once per version and ranked in memory): p50 and p95 of
 * warm searches, and the first (cold) search of each size.
 *
 * Each environment holds packages of 1,000 synthetic entities (sources of
 * orders, shipments, employees... with dimensions, measures, views and
 * indexed values), stored as a publish stores them and indexed by
 * `indexVersion`.
 *
 * Run: `bun test/bench/retrieval_latency.ts [sizes...]` (default 1000 10000 50000;
 * TEST_DATABASE_URL for a server database).
 * @module
 */
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import type { Principal } from "../../src/access/principal.ts";
import { insertModelMetadata } from "../../src/models/store.ts";
import { indexVersion } from "../../src/retrieval/index/indexer.ts";
import type { IndexedValue } from "../../src/retrieval/index/indexed_values.ts";
import { createContextSearcher } from "../../src/retrieval/search.ts";
import { startTestService } from "../helpers/service.ts";
import { dim, msr, source, view } from "./retrieval_packages.ts";

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [1_000, 10_000, 50_000];
const PER_PACKAGE = 1_000;

const s = await startTestService({ INDEX_ON_PUBLISH: "false" });
const sql = s.service.db.sql;
await s.call("POST", "/api/v0/organizations", { token: await s.adminToken(), body: { name: "bench" } });
await s.createUser("analyst");
const [analyst] = await sql`SELECT id FROM users WHERE user_name = 'analyst'`;
const principal: Principal = { kind: "user", userId: analyst!.id as string, userName: "analyst", systemAdmin: false };

const SUBJECTS = ["order", "shipment", "customer", "product", "flight", "airport", "employee", "invoice", "payment", "ticket", "session", "campaign", "store", "supplier", "contract", "claim", "visit", "account", "device", "subscription"];
const ATTRIBUTES = ["id", "dt", "status", "type", "amt", "qty", "region", "country", "city", "category", "channel", "owner", "cost", "price", "score", "duration_mins", "created_at", "updated_at", "name", "code", "segment", "tier", "source", "weight_kg", "discount_pct"];
const MEASURES = ["count", "total_amt", "avg_amt", "avg_duration", "pct_late", "revenue", "margin", "max_score", "distinct_owners", "cancel_rate"];
const STATUS_VALUES = ["open", "closed", "pending", "cancelled", "shipped", "delivered", "returned", "on hold"];

/** One package of about 1,000 entities; `seed` varies the names so packages differ. */
function syntheticModel(seed: number): { model: ModelMetadata; values: Record<string, string[]> } {
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

async function store(envId: string, name: string, seed: number): Promise<void> {
  const { model, values } = syntheticModel(seed);
  const sha = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${envId}/${name}`))), (b) => b.toString(16).padStart(2, "0")).join("");
  const version = await sql.begin(async (tx) => {
    const [pkg] = await tx`INSERT INTO packages (env_id, name) VALUES (${envId}, ${name}) RETURNING id`;
    await tx`INSERT INTO package_blobs (sha256, size, chunks) VALUES (${sha}, 0, 0) ON CONFLICT DO NOTHING`;
    const [v] = await tx`INSERT INTO package_versions (package_id, version_id, blob_sha256) VALUES (${pkg!.id as string}, '1.0.0', ${sha}) RETURNING id`;
    await tx`UPDATE packages SET latest_version = ${v!.id as string} WHERE id = ${pkg!.id as string}`;
    await insertModelMetadata(tx, { version: v!.id as string, packageId: pkg!.id as string, envId }, [model]);
    return v!.id as string;
  });
  const given = new Map<string, IndexedValue[]>();
  for (const [key, list] of Object.entries(values)) given.set(`${model.modelPath}#${key}`, list.map((value, i) => ({ value, count: list.length - i })));
  await indexVersion(s.service.ctx, version, { values: given });
}

const QUESTIONS = [
  "average order amount by region", "how many shipments were delivered late", "customers by loyalty tier", "total revenue per month",
  "cancelled orders", "which suppliers have the highest cost", "employee count by city", "invoice discount percent", "open tickets by owner",
  "subscription churn", "device weight", "campaign score by channel", "store revenue", "claims by status", "visit duration in minutes",
  "account segment", "payment methods", "flights by airport code", "contract price over time", "product category margin",
];

const searcher = createContextSearcher(s.service.ctx);
for (const size of SIZES) {
  const envName = `e${size}`;
  await s.call("POST", "/api/v0/organizations/bench/environments", { token: await s.adminToken(), body: { name: envName } });
  const [env] = await sql`SELECT id FROM environments WHERE name = ${envName}`;
  const envId = env!.id as string;
  await sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role) VALUES ('environment', ${envId}, 'user', ${analyst!.id as string}, 'viewer')`;
  const t0 = performance.now();
  for (let p = 0; p < Math.ceil(size / PER_PACKAGE); p++) await store(envId, `pkg${p}`, p);
  const [count] = await sql`SELECT count(*)::int AS n FROM model_entities me JOIN packages p ON p.id = me.package_id WHERE p.env_id = ${envId}`;
  const ask = (question: string) => searcher.search(principal, { organization: "bench", natural_language_query: question, environment_name: envName });
  const c0 = performance.now();
  await ask(QUESTIONS[0]!);
  const cold = performance.now() - c0;
  const times: number[] = [];
  const sizesOut: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of QUESTIONS) {
      const q0 = performance.now();
      const result = await ask(`${q}${round > 0 ? ` ${round}` : ""}`);
      times.push(performance.now() - q0);
      sizesOut.push(JSON.stringify(result).length);
    }
  }
  times.sort((a, b) => a - b);
  sizesOut.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  console.log(`get_context environment scope, ${count!.n} entities (${Math.ceil(size / PER_PACKAGE)} packages, stored in ${((c0 - t0) / 1000).toFixed(0)} s): ` +
    `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms over ${times.length} warm searches; first search ${cold.toFixed(0)} ms; ` +
    `median answer ${sizesOut[Math.floor(sizesOut.length / 2)]} chars; database ${s.service.db.kind}`);
}
await s.close();
