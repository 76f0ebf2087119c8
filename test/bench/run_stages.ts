/**
 * Where a package run's time goes, in process (embedded database): publishes
 * `BENCH_PACKAGES` (3) synthetic packages of `BENCH_SOURCES` (26) sources x 25
 * dimensions x 10 measures over a 200-row CSV (lib_synthetic_package.ts), one
 * after another, each waited for, and prints per run its time from start to
 * end, the time its table and index units took together, and the rest (the
 * retrieval step: automatic value indexes, entity texts, embeddings, rows).
 * The synthetic package has no `#(index)` nor persisted source: its run is
 * the retrieval step alone.
 *
 * Run: `bun test/bench/run_stages.ts` (add `--cpu-prof` to bun for a profile).
 * @module
 */
import { waitForRuns } from "../../src/runs/worker.ts";
import { publish, startWorld } from "../packages/helpers.ts";
import { packageFiles } from "./lib_synthetic_package.ts";

const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 3);
const SOURCES = Number(process.env.BENCH_SOURCES ?? 26);
const w = await startWorld({ COMPILE_TIMEOUT_MS: "300000" });
const sql = w.s.service.db.sql;
const loadavg = async () => (await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ");
console.log(`load average ${await loadavg()}`);
for (let i = 0; i < PACKAGES; i++) {
  const files = new Map(Object.entries(packageFiles(SOURCES, `p${i}`)));
  const t0 = performance.now();
  const r = await publish(w, `p${i}`, "1.0.0", { token: w.admin, files });
  if (r.status !== 201) throw new Error(`publish: ${r.status} ${JSON.stringify(r.body)}`);
  const published = performance.now() - t0;
  await waitForRuns(w.s.service.ctx, { timeoutMs: 600_000 });
  const [run] = await sql`SELECT id, state, error, extract(epoch FROM finished_at - started_at) * 1000 AS ms FROM runs WHERE id = ${r.body.runId}`;
  const units = await sql`SELECT kind, count(*)::int AS n, sum(extract(epoch FROM finished_at - started_at) * 1000)::float AS ms,
                                 extract(epoch FROM max(finished_at) - min(started_at)) * 1000 AS span
                            FROM run_units WHERE run = ${r.body.runId} GROUP BY kind ORDER BY kind`;
  const [last] = await sql`SELECT extract(epoch FROM r.finished_at - max(u.finished_at)) * 1000 AS ms FROM runs r JOIN run_units u ON u.run = r.id WHERE r.id = ${r.body.runId} GROUP BY r.finished_at`;
  const [entities] = await sql`SELECT count(*)::int AS n FROM entity_embeddings ee JOIN package_versions v ON v.id = ee.version JOIN packages p ON p.id = v.package_id WHERE p.name = ${`p${i}`}`;
  const unitText = units.map((u) => `${u.n} ${u.kind} units ${Number(u.ms).toFixed(0)} ms (span ${Number(u.span).toFixed(0)} ms), `).join("");
  console.log(`p${i}: publish ${published.toFixed(0)} ms; run ${run!.state} in ${Number(run!.ms).toFixed(0)} ms${run!.error ? ` (${run!.error})` : ""}; ` +
    `${unitText}${units.length > 0 ? `after the last unit ${Number(last?.ms ?? 0).toFixed(0)} ms (the retrieval step); ` : "no units; "}${entities!.n} entities indexed`);
}
console.log(`load average ${await loadavg()}`);
await w.s.close();
process.exit(0);
