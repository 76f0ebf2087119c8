
import type { Principal } from "../../src/access/principal.ts";
import { createContextSearcher } from "../../src/retrieval/search.ts";
import { PER_PACKAGE, storeIndexedVersion, syntheticModel } from "./lib_stored_versions.ts";
import { startTestService } from "../helpers/service.ts";

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [1_000, 10_000, 50_000];

const s = await startTestService({ INDEX_ON_PUBLISH: "false" });
const sql = s.service.db.sql;
await s.call("POST", "/api/v0/organizations", { token: await s.adminToken(), body: { name: "bench" } });
await s.createUser("analyst");
const [analyst] = await sql`SELECT id FROM users WHERE user_name = 'analyst'`;
const principal: Principal = { kind: "user", userId: analyst!.id as string, userName: "analyst", systemAdmin: false };

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
  for (let p = 0; p < Math.ceil(size / PER_PACKAGE); p++) {
    const { model, values } = syntheticModel(p);
    await storeIndexedVersion(s.service.ctx, { envId, name: `pkg${p}`, models: [model], values });
  }
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
