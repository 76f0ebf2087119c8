/**
 * Malloy's access modifiers (`include { private: salary }`) as a caller sees
 * them: a field a query may not name is not read by a wildcard either.
 * Malloy 0.0.431 expanded `select: *` and `index: *` over every field, the
 * private ones included, so a caller read a column the modeler hid by writing
 * `*` instead of its name (the mechanism: wildcard expansion walked the raw
 * field namespace, without the access check that a named reference gets; the
 * package's patch of the translator applies that check, as upstream Malloy's
 * fix does). The source's own views, written by the modeler, still read the
 * private column. An `internal:` field is, by Malloy's design, readable in an
 * extension of its source, which query text may write: it hides a field from
 * plain queries and wildcards, and is not a boundary (docs/row-level-security.md).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish } from "../packages/helpers.ts";
import { waitRun } from "../runs/fixtures.ts";
import { admin, type SalesClients, type SalesWorld, connectSalesClients, startSalesWorld } from "./world.ts";

/** Staff with a private salary and an internal code; a view of the modeler's reads both. */
const STAFF = `##! experimental.access_modifiers
source: staff is duckdb.table('data/staff.csv') include {
  public: id, name, team
  private: salary
  internal: badge_code
} extend {
  measure: headcount is count()
  measure: payroll_total is salary.sum()
  view: modeler_all is { select: *; order_by: id }
}

source: teams is duckdb.table('data/teams.csv') extend {
  join_many: s is staff on team = s.team
}

source: staff_plus is staff extend {
  dimension: name_upper is upper(name)
}
`;
const STAFF_CSV = "id,name,team,salary,badge_code\n1,Ada,core,91234,B-77\n2,Bo,web,87654,B-88\n";
const TEAMS_CSV = "team,floor\ncore,3\nweb,4\n";
const PRIVATE = /91234|87654|"salary"/;
const INTERNAL = /B-77|B-88|"badge_code"/;

let w: SalesWorld;
let keyClient: Client;
let oauthClient: Client;
let clients: SalesClients | undefined;
const P = `${API}/organizations/acme/environments/prod/packages/staff`;
const QUERY = `${P}/models/staff.malloy/query`;

beforeAll(async () => {
  w = await startSalesWorld({ INDEX_ON_PUBLISH: "false" });
  const files = new Map([
    ["publisher.json", bytes(JSON.stringify({ name: "staff" }))],
    ["staff.malloy", bytes(STAFF)],
    ["data/staff.csv", bytes(STAFF_CSV)],
    ["data/teams.csv", bytes(TEAMS_CSV)],
  ]);
  const published = await publish(w, "staff", "1.0.0", { token: w.admin, files });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
  await admin(w, "POST", "/organizations/acme/environments/prod/packages/staff/permissions", { userGroupId: "group:sales_eu", permission: "viewer" }, 201);
  clients = await connectSalesClients(w);
  ({ keyClient, oauthClient } = clients);
}, 300_000);
afterAll(async () => {
  await (clients ? clients.close() : w?.s.close());
}, 120_000);

/** Query texts with a wildcard, and whether it is written in an extension (where Malloy lets `internal:` fields be read, by name too). */
const WILDCARDS = [
  "run: staff -> { select: *; order_by: id }",
  "run: staff -> { index: * }",
  "run: staff -> { group_by: team; nest: rows is { select: * } }",
  "run: staff_plus -> { select: *; order_by: id }",
  "run: teams -> { index: s.* }",
  "run: staff extend { view: mine is { select: * } } -> mine",
  "run: staff -> { select: * } -> { select: * }",
  "source: mine is staff extend { dimension: x is 1 }\nrun: mine -> { select: *; order_by: id }",
  "run: staff -> { select: * { except: id } }",
];

describe("wildcards over private and internal fields", () => {
  for (const query of WILDCARDS) {
    const extension = /extend \{ view/.test(query);
    const hidden = extension ? PRIVATE : new RegExp(`${PRIVATE.source}|${INTERNAL.source}`);
    test(`${query.replace(/\n/g, " ")}: no private${extension ? "" : " or internal"} value, on REST, dry run and MCP (API key and OAuth)`, async () => {
      for (const auth of [{ token: w.admin }, { token: w.ann }, { apiKey: w.salesKey }]) {
        const r = await w.s.call("POST", QUERY, { ...auth, body: { query } });
        // every wildcard query answers (the public fields), so the check below reads rows, not an error
        expect([query, r.status]).toEqual([query, 200]);
        expect([query, JSON.stringify(r.body)]).toEqual([query, expect.not.stringMatching(hidden)]);
        const dry = await w.s.call("POST", QUERY, { ...auth, body: { query, dryRun: true } });
        expect([query, String(dry.body.sql ?? "")]).toEqual([query, expect.not.stringMatching(extension ? /salary/ : /salary|badge_code/)]);
      }
      for (const [who, client] of [["key", keyClient], ["oauth", oauthClient]] as const) {
        const mcp = await client.callTool({ name: "execute_query", arguments: { environment_name: "prod", package_name: "staff", model_uri: "staff.malloy", query } });
        // answered (public fields), not refused: the check reads rows
        expect([who, query, (mcp as { isError?: boolean }).isError ?? false]).toEqual([who, query, false]);
        expect([who, query, JSON.stringify(mcp)]).toEqual([who, query, expect.not.stringMatching(hidden)]);
      }
    });
  }

  test("the public fields still come back, and naming a private field is refused as before", async () => {
    const all = await w.s.call("POST", QUERY, { token: w.ann, body: { query: "run: staff -> { select: *; order_by: id }" } });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([{ id: 1, name: "Ada", team: "core" }, { id: 2, name: "Bo", team: "web" }]);
    const named = await w.s.call("POST", QUERY, { token: w.ann, body: { query: "run: staff -> { select: salary }" } });
    expect(named.status).toBe(400);
    expect(named.body.message).toContain("'salary' is private");
    const joined = await w.s.call("POST", QUERY, { token: w.ann, body: { query: "run: teams -> { index: s.* }" } });
    expect(joined.status).toBe(200);
    expect(new Set((joined.body.data as { fieldName: string | null }[]).map((row) => row.fieldName))).toEqual(new Set(["s.id", "s.name", "s.team", null]));
  });

  test("the modeler's own view and measure still read the private column", async () => {
    const view = await w.s.call("POST", QUERY, { token: w.ann, body: { query: "run: staff -> modeler_all" } });
    expect(view.status).toBe(200);
    expect(view.body.data[0]).toEqual({ id: 1, name: "Ada", team: "core", salary: 91234, badge_code: "B-77" });
    const total = await w.s.call("POST", QUERY, { token: w.ann, body: { query: "run: staff -> { aggregate: payroll_total }" } });
    expect(total.body.data).toEqual([{ payroll_total: 178888 }]);
  });
});

/** An answer as text without the phrases it echoes from the question (which name the values asked for). */
function withoutQuestion(answer: unknown): string {
  return JSON.stringify(answer, (key, value) => (key === "phrase" ? undefined : value));
}

describe("what describes the model: the models API, get_context and the value indexes", () => {
  beforeAll(async () => {
    const run = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
    expect(run.status).toBe(201);
    expect((await waitRun(w, `${P}/runs/${run.body.id}`, { token: w.admin })).state).toBe("succeeded");
  }, 200_000);

  test("the models API lists no private or internal field, and no private join", async () => {
    const model = await w.s.call("GET", `${P}/models/staff.malloy`, { token: w.ann });
    expect(model.status).toBe(200);
    const text = JSON.stringify(model.body);
    expect(text).toContain("payroll_total");
    expect(text).not.toMatch(/"salary"|"badge_code"/);
  });

  test("get_context names no private or internal field or value, after the run indexed the source's values", async () => {
    for (const question of ["salary of each person", "badge code B-77", "which staff earn 91234", "staff names by team"]) {
      const result = await keyClient.callTool({ name: "get_context", arguments: { natural_language_query: question, environment_name: "prod", package_name: "staff" } });
      const answer = withoutQuestion(JSON.parse((result.content as { text: string }[])[0]!.text));
      expect(answer).toContain("payroll_total");
      expect([question, answer]).toEqual([question, expect.not.stringMatching(/91234|87654|B-77|B-88|\bbadge_code\b|"salary"|staff\.salary/)]);
    }
    const values = await w.s.call("GET", `${P}/versions/1.0.0/indexes`, { token: w.admin });
    expect(JSON.stringify(values.body)).not.toMatch(/B-77|B-88|91234/);
  });
});
