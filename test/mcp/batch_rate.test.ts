/**
 * The request rate limit counts JSON-RPC requests, not POSTs: a batch of
 * tool calls (up to the transport's 100) takes one token per message, so a
 * batch cannot multiply what a principal may ask per minute.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { createOrgWithKey, postRpc, serveOnLoopback, type OrgWithKey, type Served } from "../helpers/mcp.ts";

let s: TestService;
let served: Served;
let acme: OrgWithKey;
let other: OrgWithKey;
let big: OrgWithKey;

beforeAll(async () => {
  s = await startTestService({ RATE_LIMIT_PER_MINUTE: "30" });
  served = serveOnLoopback(s.service.handle);
  acme = await createOrgWithKey(s.service.db.sql, "acme");
  other = await createOrgWithKey(s.service.db.sql, "other");
  big = await createOrgWithKey(s.service.db.sql, "big");
}, 60_000);
afterAll(async () => {
  served?.stop();
  await s?.close();
});

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_context", arguments: { natural_language_query: `orders by region ${id}` } } });
const batch = (n: number, from = 0) => Array.from({ length: n }, (_, i) => call(from + i));

describe("batches and the rate limit", () => {
  test("a batch takes one token per message: 20 pass, the next 20 exceed the 30 per minute", async () => {
    const first = await postRpc(`${served.url}/mcp/acme`, batch(20), { authorization: `ApiKey ${acme.secret}` });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(20);
    const second = await postRpc(`${served.url}/mcp/acme`, batch(20, 20), { authorization: `ApiKey ${acme.secret}` });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    // what is left of the bucket still serves a single call, and other principals are not affected
    const single = await postRpc(`${served.url}/mcp/acme`, call(99), { authorization: `ApiKey ${acme.secret}` });
    expect(single.status).toBe(200);
    const elsewhere = await postRpc(`${served.url}/mcp/other`, batch(25), { authorization: `ApiKey ${other.secret}` });
    expect(elsewhere.status).toBe(200);
  });

  test("a large batch body (past the direct path's size check) is counted the same", async () => {
    const padded = Array.from({ length: 40 }, (_, i) => ({ ...call(i), params: { name: "get_context", arguments: { natural_language_query: `orders ${"x".repeat(9000)} ${i}` } } }));
    const r = await postRpc(`${served.url}/mcp/big`, padded, { authorization: `ApiKey ${big.secret}` });
    expect(r.status).toBe(429);
  });
});
