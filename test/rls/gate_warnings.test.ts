/**
 * A gate `#(authorize) "$TIER = 'gold'"` over a given that no attribute of
 * the organization fills is decided by the request (givens keep Malloy's
 * behaviour): the publish succeeds, as in Publisher, and says so in
 * `accessWarnings`, naming the given and the attribute to declare. Once the
 * attribute is declared the warning is gone and the gate is a boundary: the
 * request can no longer set the given.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { admin, ORDERS_CSV } from "./world.ts";

const MODEL = `##! experimental.givens
given:
  TIER :: string is ''
  ROLE :: string is ''

#(authorize) "$TIER = 'gold' or $ROLE = 'admin'"
source: gated is duckdb.table('data/orders.csv')

source: open is duckdb.table('data/orders.csv')
`;
const PUBLISHER = bytes(JSON.stringify({ name: "tiers" }));
const files = () => new Map([["publisher.json", PUBLISHER], ["models/tiers.malloy", bytes(MODEL)], ["data/orders.csv", bytes(ORDERS_CSV)]]);
const Q = `${API}/organizations/acme/environments/prod/packages/tiers/models/models/tiers.malloy/query`;

let w: World;
let viewer: string;
beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  await admin(w, "PUT", "/organizations/acme/attributes/ROLE", { type: "string" }, 201);
  viewer = await w.s.createUser("val");
  await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:val", permission: "member" }, 201);
  await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: "user:val", permission: "viewer" }, 201);
}, 120_000);
afterAll(async () => {
  await w?.s.close();
}, 60_000);

const run = (givens?: Record<string, string>) =>
  w.s.call("POST", Q, { token: viewer, body: { query: "run: gated -> { aggregate: n is count() }", ...(givens ? { givens } : {}) } });

test("a gate over a given no attribute fills: published with a warning naming it (not ROLE, which is an attribute); the request opens the gate", async () => {
  const r = await publish(w, "tiers", "1.0.0", { token: w.admin, files: files() });
  expect([r.status, r.body.message]).toEqual([201, undefined]);
  const warnings = r.body.accessWarnings as { message: string }[];
  expect(warnings).toHaveLength(1);
  expect(warnings[0]!.message).toContain("models/tiers.malloy: source 'gated'");
  expect(warnings[0]!.message).toContain("$TIER");
  expect(warnings[0]!.message).not.toContain("$ROLE");
  expect(warnings[0]!.message).toContain("PUT /organizations/{org}/attributes/TIER");
  // what the warning says: without a value the gate denies, with the request's value it opens
  expect((await run()).status).toBe(403);
  const opened = await run({ TIER: "gold" });
  expect([opened.status, opened.body.data]).toEqual([200, [{ n: 5 }]]);
});

test("once TIER is an attribute: no warning, the request cannot set it, and only the attribute's value opens the gate", async () => {
  await admin(w, "PUT", "/organizations/acme/attributes/TIER", { type: "string" }, 201);
  const r = await publish(w, "tiers", "1.0.1", { token: w.admin, files: files() });
  expect([r.status, r.body.message]).toEqual([201, undefined]);
  expect(r.body.accessWarnings).toBeUndefined();
  const set = await run({ TIER: "gold" });
  expect(set.status).toBe(400);
  expect((await run()).status).toBe(403);
  await admin(w, "PUT", "/organizations/acme/attributes/TIER/users/val", { value: "gold" }, [200, 201]);
  const gold = await run();
  expect([gold.status, gold.body.data]).toEqual([200, [{ n: 5 }]]);
});

test("a model without gates publishes without accessWarnings", async () => {
  const plain = new Map([["publisher.json", PUBLISHER], ["models/tiers.malloy", bytes("source: open is duckdb.table('data/orders.csv')\n")], ["data/orders.csv", bytes(ORDERS_CSV)]]);
  const r = await publish(w, "plain", "1.0.0", { token: w.admin, files: plain });
  expect([r.status, r.body.message]).toEqual([201, undefined]);
  expect(r.body.accessWarnings).toBeUndefined();
});
