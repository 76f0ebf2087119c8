/**
 * A `get_context` answer says whether its scope is fully indexed: `ready`,
 * `indexing` with progress, `index_failed` with the reason (withheld for a
 * source the caller may not query), `not_indexed` for a version no run built.
 * Through a real MCP client, runs started through the API.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { API, groupApiKey, publish, startWorld, type World } from "../packages/helpers.ts";
import { BROKEN_INDEX_MODEL, pkgPath, RUNS_MODEL, runsPackage, waitRun } from "../runs/fixtures.ts";

let w: World;
let served: Served;
let client: Client;

interface Answer {
  status: string;
  progress?: { versions_indexed: number; versions_total: number; units_done: number; units_total: number; indexing: string[] };
  reason?: string;
  sources: unknown[];
}

async function ask(scope: Record<string, string>, question = "flights by carrier code"): Promise<Answer> {
  const result = await client.callTool({ name: "get_context", arguments: { natural_language_query: question, ...scope } });
  expect(result.isError).toBeFalsy();
  return JSON.parse((result as { content: { text: string }[] }).content[0]!.text) as Answer;
}

async function runOf(pkg: string): Promise<Record<string, unknown>> {
  const created = await w.s.call("POST", `${pkgPath(pkg)}/versions/1.0.0/runs`, { token: w.admin, body: {} });
  expect(created.status).toBe(201);
  return await waitRun(w, `${pkgPath(pkg)}/runs/${created.body.id}`, { token: w.admin });
}

beforeAll(async () => {
  // runs only when asked for, so each package's state is the test's doing
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  expect((await w.s.call("POST", `${API}/organizations/acme/groups`, { token: w.admin, body: { name: "finance" } })).status).toBe(201);
  for (const [pkg, model] of [
    ["ready", RUNS_MODEL],
    ["broken", BROKEN_INDEX_MODEL],
    ["secret", `#(authorize) groups=[finance]\n${BROKEN_INDEX_MODEL}`],
    ["busy", RUNS_MODEL],
    ["never", RUNS_MODEL],
  ] as const) {
    expect((await publish(w, pkg, "1.0.0", { token: w.admin, files: runsPackage(model) })).status).toBe(201);
  }
  expect((await runOf("ready")).state).toBe("succeeded");
  expect((await runOf("broken")).state).toBe("failed");
  expect((await runOf("secret")).state).toBe("failed");
  // busy: a run another node is building, one of its two units done
  const [v] = await w.s.service.db.sql`SELECT v.id, v.package_id FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'busy'`;
  const [r] = await w.s.service.db.sql`INSERT INTO runs (package_id, version, state, claimed_by, started_at, heartbeat_at, prior_index_status)
    VALUES (${v!.package_id as string}, ${v!.id as string}, 'running', 'other-node', now(), now() + interval '1 hour', 'unknown') RETURNING id`;
  await w.s.service.db.sql`INSERT INTO run_units (run, position, kind, target, model_path, source_name, state) VALUES
    (${r!.id as string}, 0, 'index', 'flights.carrier_code', 'models/flights.malloy', 'flights', 'succeeded'),
    (${r!.id as string}, 1, 'index', 'flights.origin_code', 'models/flights.malloy', 'flights', 'running')`;
  await w.s.service.db.sql`UPDATE package_versions SET index_status = 'indexing' WHERE id = ${v!.id as string}`;
  const key = await groupApiKey(w, "agents", { viewerOf: "/organizations/acme/environments/prod" });
  served = serveOnLoopback(w.s.service.handle);
  client = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key}`);
}, 300_000);

afterAll(async () => {
  await client?.close();
  served?.stop();
  await w?.s.close();
}, 120_000);

describe("get_context index status", () => {
  test("a fully indexed scope is ready, with no progress or reason", async () => {
    const answer = await ask({ environment_name: "prod", package_name: "ready" });
    expect(answer.status).toBe("ready");
    expect(answer.progress).toBeUndefined();
    expect(answer.reason).toBeUndefined();
    expect(answer.sources.length).toBeGreaterThan(0);
  });

  test("a version being indexed: indexing, with its units' progress", async () => {
    const answer = await ask({ environment_name: "prod", package_name: "busy" });
    expect(answer.status).toBe("indexing");
    expect(answer.progress).toEqual({ versions_indexed: 0, versions_total: 1, units_done: 1, units_total: 2, indexing: ["prod/busy@1.0.0"] });
    // still answered, from its names and docs
    expect(answer.sources.length).toBeGreaterThan(0);
  });

  test("a failed index: index_failed with the run's error", async () => {
    const answer = await ask({ environment_name: "prod", package_name: "broken" });
    expect(answer.status).toBe("index_failed");
    expect(answer.reason).toContain("prod/broken@1.0.0 failed to index");
    expect(answer.reason).toContain("flights.broken");
  });

  test("the failure of a source the caller may not query is named without its error", async () => {
    const answer = await ask({ environment_name: "prod", package_name: "secret" });
    expect(answer.status).toBe("index_failed");
    expect(answer.reason).toContain("prod/secret@1.0.0 failed to index: a unit built from a source you may not query failed");
    expect(answer.reason).not.toContain("broken");
    expect(answer.reason).not.toContain("origin");
  });

  test("a version no run built: not_indexed, saying how to index it", async () => {
    const answer = await ask({ environment_name: "prod", package_name: "never" });
    expect(answer.status).toBe("not_indexed");
    expect(answer.reason).toContain("prod/never@1.0.0 has not been indexed");
    expect(answer.reason).toContain("/runs");
  });

  test("environment scope: indexing wins, with progress over all versions and the other reasons", async () => {
    const answer = await ask({ environment_name: "prod" });
    expect(answer.status).toBe("indexing");
    expect(answer.progress).toEqual({ versions_indexed: 1, versions_total: 5, units_done: 1, units_total: 2, indexing: ["prod/busy@1.0.0"] });
    expect(answer.reason).toContain("prod/broken@1.0.0 failed to index");
    expect(answer.reason).toContain("prod/never@1.0.0 has not been indexed");
  });
});
