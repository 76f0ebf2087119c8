/**
 * Index status transitions, re-embedding, model changes and the lexical
 * fallback of the retrieval index, through a published package.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resetEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { ENTITY_TEXT_FORMAT } from "../../src/retrieval/index/entity_text.ts";
import { indexVersion, resumeIndexing, waitForIndexing } from "../../src/retrieval/index/indexer.ts";
import { createContextSearcher } from "../../src/retrieval/search.ts";
import type { Principal } from "../../src/access/principal.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { ecommerceFiles } from "./fixtures.ts";

let w: World;
let uuid: string;
const VERSION = `${API}/organizations/acme/environments/prod/packages/shop/versions/1.0.0`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  const r = await publish(w, "shop", "1.0.0", { token: w.admin, files: ecommerceFiles() });
  expect(r.status).toBe(201);
  const [v] = await w.s.service.db.sql`SELECT id FROM package_versions`;
  uuid = v!.id as string;
}, 120_000);

afterAll(async () => {
  await w.s.close();
}, 120_000);

async function status(): Promise<string> {
  return (await w.s.call("GET", VERSION, { token: w.admin })).body.indexStatus;
}

async function principal(): Promise<Principal> {
  const [u] = await w.s.service.db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
  return { kind: "user", userId: u!.id as string, userName: "admin", systemAdmin: true };
}

test("index status goes unknown -> indexing -> indexed, visible on GET version", async () => {
  expect(await status()).toBe("unknown");
  const seen: string[] = [];
  const report = await indexVersion(w.s.service.ctx, uuid, { beforeWork: async () => void seen.push(await status()) });
  expect(seen).toEqual(["indexing"]);
  expect(await status()).toBe("indexed");
  expect(report.model).toBe("wink-glove-100d");
  expect(report.embedded).toBeGreaterThan(0);
  expect(report.valueDimensions).toBe(3);
});

test("before indexing, a version is still searched lexically from its metadata", async () => {
  const r = await publish(w, "fresh", "1.0.0", { token: w.admin, files: ecommerceFiles({ delayMeasure: "fresh_delay" }) });
  expect(r.status).toBe(201);
  expect(r.body.version.indexStatus).toBe("unknown");
  const result = await createContextSearcher(w.s.service.ctx).search(await principal(), {
    organization: "acme", natural_language_query: "fresh_delay", environment_name: "prod", package_name: "fresh",
  });
  expect(result.sources[0]!.phrases[0]!.entities[0]).toMatchObject({ name: "fresh_delay", match_reason: "exact name match" });
});

test("re-indexing is idempotent: no text is embedded again and the vectors stay the same", async () => {
  const before = await w.s.service.db.sql`SELECT entity_id, embedding::text AS e, content_hash FROM entity_embeddings WHERE version = ${uuid} ORDER BY entity_id`;
  const report = await indexVersion(w.s.service.ctx, uuid);
  expect(report.embedded).toBe(0);
  expect(report.reused).toBe(before.filter((r) => r.e !== null).length);
  const after = await w.s.service.db.sql`SELECT entity_id, embedding::text AS e, content_hash FROM entity_embeddings WHERE version = ${uuid} ORDER BY entity_id`;
  expect(after).toEqual(before);
});

test("vectors of another model are re-embedded on start (resumeIndexing), and a crash's 'indexing' is resumed", async () => {
  await w.s.service.db.sql`UPDATE entity_embeddings SET model = 'old-model' WHERE version = ${uuid}`;
  await w.s.service.db.sql`UPDATE package_versions SET index_status = 'indexing' WHERE id = ${uuid}`;
  expect(await resumeIndexing(w.s.service.ctx)).toBe(1);
  await waitForIndexing(w.s.service.ctx);
  const models = await w.s.service.db.sql`SELECT DISTINCT model FROM entity_embeddings WHERE version = ${uuid}`;
  expect(models.map((r) => r.model)).toEqual(["wink-glove-100d"]);
  expect(await status()).toBe("indexed");
  // vectors are ranked in memory: no HNSW index is maintained on every insert
  const indexes = await w.s.service.db.sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'entity_embeddings' AND indexdef ILIKE '%hnsw%'`;
  expect(indexes.length).toBe(0);
});

test("texts built another way (an older ENTITY_TEXT_FORMAT) are rebuilt on start (resumeIndexing)", async () => {
  const fresh = await w.s.service.db.sql`SELECT entity_id, text, lexical_terms FROM entity_embeddings WHERE version = ${uuid} ORDER BY entity_id`;
  expect(fresh.length).toBeGreaterThan(0);
  expect(await resumeIndexing(w.s.service.ctx)).toBe(0);
  // as a version indexed before the last change to how texts are built would be
  await w.s.service.db.sql`UPDATE entity_embeddings SET text_format = ${ENTITY_TEXT_FORMAT - 1}, text = 'old text', lexical_terms = '{}' WHERE version = ${uuid}`;
  expect(await resumeIndexing(w.s.service.ctx)).toBe(1);
  await waitForIndexing(w.s.service.ctx);
  const rebuilt = await w.s.service.db.sql`SELECT entity_id, text, lexical_terms FROM entity_embeddings WHERE version = ${uuid} ORDER BY entity_id`;
  expect(rebuilt).toEqual(fresh);
  const [formats] = await w.s.service.db.sql`SELECT array_agg(DISTINCT text_format) AS f FROM entity_embeddings WHERE version = ${uuid}`;
  expect(formats!.f).toEqual([ENTITY_TEXT_FORMAT]);
  expect(await resumeIndexing(w.s.service.ctx)).toBe(0);
});

test("without the model, indexing and search are lexical and /status says so", async () => {
  const saved = process.env.EMBEDDING_MODEL_DIR;
  process.env.EMBEDDING_MODEL_DIR = await mkdtemp(join(tmpdir(), "no-model-"));
  resetEmbedder();
  try {
    const report = await indexVersion(w.s.service.ctx, uuid);
    expect(report.model).toBeNull();
    const [n] = await w.s.service.db.sql`SELECT count(*)::int AS rows, count(model)::int AS vectors FROM entity_embeddings WHERE version = ${uuid}`;
    expect(n!.rows).toBeGreaterThan(0);
    expect(n!.vectors).toBe(0);
    const result = await createContextSearcher(w.s.service.ctx).search(await principal(), {
      organization: "acme", natural_language_query: "average delivery delay", environment_name: "prod", package_name: "shop",
    });
    const entities = result.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities));
    expect(entities[0]!.name).toBe("avg_delivery_delay");
    expect(entities.some((e) => e.match_reason.includes("semantic"))).toBe(false);
    const s = await w.s.call("GET", `${API}/status`, { token: w.admin });
    expect(s.body.embeddings).toMatchObject({ state: "unavailable", retrieval: "lexical" });
  } finally {
    if (saved === undefined) delete process.env.EMBEDDING_MODEL_DIR;
    else process.env.EMBEDDING_MODEL_DIR = saved;
    resetEmbedder();
  }
  // With the model back, a start re-embeds the lexical-only version.
  expect(await resumeIndexing(w.s.service.ctx)).toBeGreaterThanOrEqual(1);
  await waitForIndexing(w.s.service.ctx);
  const [n] = await w.s.service.db.sql`SELECT count(model)::int AS vectors FROM entity_embeddings WHERE version = ${uuid}`;
  expect(n!.vectors).toBeGreaterThan(0);
});

test("a failing index run marks the version failed and keeps it published", async () => {
  const error = await indexVersion(w.s.service.ctx, uuid, { beforeWork: () => { throw new Error("disk full"); } }).catch((e) => e);
  expect((error as Error).message).toBe("disk full");
  const v = await w.s.call("GET", VERSION, { token: w.admin });
  expect(v.body).toMatchObject({ indexStatus: "failed", archiveStatus: "unarchive" });
  await indexVersion(w.s.service.ctx, uuid);
  expect(await status()).toBe("indexed");
});
