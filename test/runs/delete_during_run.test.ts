/**
 * Deleting a package, an environment or an organization while runs of its
 * versions are claimed and finish: every delete answers 204 and removes the
 * runs (the delete and the run's writers lock runs and versions in one order,
 * src/db/lock_order.ts; before that, PostgreSQL failed one of them with a
 * deadlock, a 500 to the caller).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { shopFiles } from "../query/fixtures.ts";

setDefaultTimeout(120_000);

let w: World;
let files: Map<string, Uint8Array>;

beforeAll(async () => {
  w = await startWorld();
  files = await shopFiles();
}, 120_000);
afterAll(() => w.s.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runsOf(pkg: string): Promise<number> {
  const [r] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM runs r JOIN packages p ON p.id = r.package_id WHERE p.name = ${pkg}`;
  return r!.n as number;
}

test("a package deleted at every moment of its publish run answers 204, and its runs are gone", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await publish(w, "churn", "1.0.0", { token: w.admin, files });
    expect(r.status).toBe(201);
    expect(r.body.runId).toBeString();
    // from at once to after the run has ended, a step at a time
    await sleep(i * 15);
    statuses.push((await w.s.call("DELETE", `${API}/organizations/acme/environments/prod/packages/churn`, { token: w.admin })).status);
    expect(await runsOf("churn")).toBe(0);
  }
  expect(statuses).toEqual(Array(12).fill(204));
});

test("an environment and an organization deleted while their runs finish answer 204", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const org = `org${i}`;
    expect((await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: org } })).status).toBe(201);
    for (const env of ["a", "b"]) {
      expect((await w.s.call("POST", `${API}/organizations/${org}/environments`, { token: w.admin, body: { name: env } })).status).toBe(201);
      const r = await publish(w, "shop", "1.0.0", { token: w.admin, files, prefix: `${API}/organizations/${org}/environments/${env}` });
      expect(r.status).toBe(201);
    }
    await sleep(i * 20);
    statuses.push((await w.s.call("DELETE", `${API}/organizations/${org}/environments/a`, { token: w.admin })).status);
    statuses.push((await w.s.call("DELETE", `${API}/organizations/${org}`, { token: w.admin })).status);
  }
  expect(statuses).toEqual(Array(12).fill(204));
});
