/**
 * The request edge: paths, query strings, bodies, PATCH bodies and cursors
 * are refused before any handler runs, and nothing changes in the database.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rawRequest } from "../helpers/raw_http.ts";
import { startTestService } from "../helpers/service.ts";
import { checkPath } from "../../src/http/edge.ts";
import { serveRaw } from "../../src/http/raw_server.ts";

const s = await startTestService();
const admin = await s.adminToken();
await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "acme" } });
await s.call("POST", "/api/v0/organizations/acme/groups", { token: admin, body: { name: "team" } });
// The server main.ts listens with: it keeps the request target as sent.
const server = await serveRaw({ port: 0, hostname: "127.0.0.1", fetch: (r) => s.service.handle(r) });
afterAll(async () => {
  await server.stop(0);
  await s.close();
}, 120_000);

/** Sends a request line exactly as written (no URL normalization by a client), returns status and body. */
function raw(method: string, target: string, headers: Record<string, string> = {}, body = ""): Promise<{ status: number; body: string }> {
  const lines = [`${method} ${target} HTTP/1.1`, "Host: localhost", `Authorization: Bearer ${admin}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return rawRequest(server.port!, lines, body);
}

async function orgCount(): Promise<number> {
  const [r] = await s.service.db.sql`SELECT count(*)::int AS n FROM organizations`;
  return r!.n as number;
}

describe("paths", () => {
  const variants = [
    "..", ".", "%2E%2E", "%2e%2e", "%2e", ".%2E", "x/..", "%2E%2E/%2E%2E", "..\\", "..%2f", "%2e%2e%2f", "%2E%2E%2Fx", "%252e%252e", "%252E%252E%252F", "%c0%ae%c0%ae", "%C0%AE%C0%AE%C0%AF",
    "%e0%80%ae%e0%80%ae", "..%5c", "%5c..%5c", "a%00b", "%00", "%0a", "%1f", "%7f", "%ed%a0%80", "%ef%bf%bd", "%ff", "%zz", "%",
  ];
  for (const v of variants) {
    test(`'${v}' in the organization segment is 400 INVALID_PATH before any handler`, async () => {
      const before = await orgCount();
      const r = await raw("DELETE", `/api/v0/organizations/acme${v.startsWith("%") || v.startsWith(".") ? "/" : ""}${v}`);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).code).toBe("INVALID_PATH");
      expect(await orgCount()).toBe(before);
    });
  }

  test("the checks see every encoding of dot segments, even those a server resolves before the app", () => {
    for (const p of ["/a/../b", "/a/%2E%2E/b", "/a/%2e%2e", "/a/./b", "/a/%2e/b", "/a\\..\\b", "/a/%5c/b", "/a/..%2f..%2fetc", "/a/%252e%252e/b"]) {
      expect(() => checkPath(p)).toThrow();
    }
    expect(checkPath("/api/v0/organizations/acme")).toBe("/api/v0/organizations/acme");
    expect(checkPath("/api/v0/x/models/models%2Fflights.malloy")).toBe("/api/v0/x/models/models/flights.malloy");
    expect(checkPath("/a/caf%C3%A9")).toBe("/a/café");
  });

  test("a lone surrogate in a path built in JavaScript is refused, not a 500", async () => {
    const r = await s.call("GET", "/api/v0/organizations/\uD800", { token: admin });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("INVALID_PATH");
  });

  test("the reported attack: DELETE of a group named %2E%2E deletes nothing", async () => {
    const before = await orgCount();
    for (const target of ["/api/v0/organizations/acme/groups/%2E%2E", "/api/v0/organizations/acme/groups/..", "/api/v0/organizations/acme/groups\\..", "/api/v0/organizations/acme/groups/%2e%2e/"]) {
      const r = await raw("DELETE", target);
      expect({ target, status: r.status, code: JSON.parse(r.body).code }).toEqual({ target, status: 400, code: "INVALID_PATH" });
    }
    expect(await orgCount()).toBe(before);
    expect((await raw("GET", "/api/v0/organizations/acme/groups/team")).status).toBe(200);
  });

  test("a valid path still works, with a body and a streamed answer", async () => {
    expect((await raw("GET", "/api/v0/organizations/acme")).status).toBe(200);
    const patched = await raw("PATCH", "/api/v0/organizations/acme", { "content-type": "application/json" }, '{"description":"over the socket"}');
    expect(patched.status).toBe(200);
    expect(JSON.parse(patched.body).description).toBe("over the socket");
    const viaFetch = await fetch(`http://127.0.0.1:${server.port}/health`);
    expect(await viaFetch.json()).toEqual({ status: "ok" });
  });
});

describe("query strings", () => {
  for (const q of ["limit=%00", "cursor=%ff", "x=%ed%a0%80", "%00=1", "limit=1%01", "q=%zz"]) {
    test(`?${q} is 400`, async () => {
      const r = await raw("GET", `/api/v0/organizations?${q}`);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).code).toBe("VALIDATION_ERROR");
    });
  }
});

describe("bodies", () => {
  test("JSON nested deeper than 64 levels is 400 at once, /health keeps answering", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const started = performance.now();
    const r = await s.call("PATCH", "/api/v0/organizations/acme", { token: admin, body: `{"description":${deep}}`, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("64");
    expect(performance.now() - started).toBeLessThan(1000);
    const ok = "[".repeat(60) + "]".repeat(60);
    const shallow = await s.call("POST", "/api/v0/organizations", { token: admin, body: `{"name":"deep","description":${ok}}`, headers: { "content-type": "application/json" } });
    expect(shallow.status).toBe(400); // a validation error of the field, not of the depth
    expect(shallow.body.message).not.toContain("64");
  });

  test("NUL in any JSON string is 400 and nothing is created", async () => {
    const before = await orgCount();
    for (const body of [{ name: "a\u0000b" }, { name: "fine", description: "x\u0000" }, { name: "fine2", extra: ["\u0000"] }]) {
      const r = await s.call("POST", "/api/v0/organizations", { token: admin, body });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("NUL");
    }
    expect(await orgCount()).toBe(before);
  });

  test("unpaired surrogates in JSON strings are 400", async () => {
    for (const text of ['{"name":"\\ud800"}', '{"name":"\\udc00x"}', '{"name":"a","description":"\\ud800\\u0041"}']) {
      const r = await s.call("POST", "/api/v0/organizations", { token: admin, body: text, headers: { "content-type": "application/json" } });
      expect(r.status).toBe(400);
    }
    const pair = await s.call("PATCH", "/api/v0/organizations/acme", { token: admin, body: '{"description":"\\ud83d\\ude00"}', headers: { "content-type": "application/json" } });
    expect(pair.status).toBe(200);
  });

  test("a body over the limit is 413, by Content-Length or by counting", async () => {
    const big = JSON.stringify({ name: "big", description: "x".repeat(2 * 1024 * 1024 + 10) });
    const r = await s.call("POST", "/api/v0/organizations", { token: admin, body: big, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < 30; i++) c.enqueue(new TextEncoder().encode("x".repeat(100_000)));
        c.close();
      },
    });
    const response = await s.service.handle(new Request("http://localhost/api/v0/organizations", {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit));
    expect(response.status).toBe(413);
  });

  test("every PATCH body must be a JSON object", async () => {
    const routes = ["/api/v0/organizations/acme", "/api/v0/organizations/acme/groups/team", "/api/v0/users/admin"];
    for (const path of routes) {
      for (const body of ["[]", "1", '"text"', "null", "true", '[{"description":"x"}]']) {
        const r = await s.call("PATCH", path, { token: admin, body, headers: { "content-type": "application/json" } });
        expect(r.status).toBe(400);
        expect(r.body.message).toContain("JSON object");
      }
    }
  });

  test("every POST and PUT body must be a JSON object, and malformed JSON is refused even where the body is optional", async () => {
    const user = await s.createUser("poster");
    const orgs = async () => (await s.call("GET", "/api/v0/organizations", { token: admin })).body.length;
    const before = await orgs();
    // optional bodies (all fields default), a required one, a PUT, and a route with no body at all
    const routes: [string, string, string][] = [
      ["POST", "/api/v0/demo/organizations", user],
      ["POST", "/api/v0/organizations/acme/demo-environment", admin],
      ["POST", "/api/v0/organizations", admin],
      ["POST", "/api/v0/organizations/acme/groups", admin],
      ["PUT", "/api/v0/organizations/acme/attributes/region", admin],
    ];
    for (const [method, path, token] of routes) {
      for (const [body, type] of [['"text"', "application/json"], ["42", "application/json"], ["true", "application/json"], ["null", "application/json"],
        ["[]", "application/json"], ['[{"name":"x"}]', "application/json"], ["hello", "text/plain"], ['{"name":', "application/json"], ["{", "application/json; charset=utf-8"]] as const) {
        const r = await s.call(method, path, { token, body, headers: { "content-type": type } });
        expect([r.status, r.body.code, method, path, body]).toEqual([400, "VALIDATION_ERROR", method, path, body]);
        expect(r.body.message).toMatch(/JSON object|not valid JSON/);
      }
    }
    // nothing was created; the same operations with an object (or no body where it is optional) still work
    expect(await orgs()).toBe(before);
    expect((await s.call("GET", "/api/v0/organizations/acme/environments", { token: admin })).body).toEqual([]);
    expect((await s.call("GET", "/api/v0/organizations/acme/attributes/region", { token: admin })).status).toBe(404);
    const none = await s.call("POST", "/api/v0/organizations/acme/demo-environment", { token: admin });
    expect(none.status).toBe(201);
    const blank = await s.call("POST", "/api/v0/organizations/acme/demo-environment", { token: admin, body: " ", headers: { "content-type": "application/json" } });
    expect(blank.status).toBe(201);
    const object = await s.call("POST", "/api/v0/demo/organizations", { token: user, body: { demoEnvironment: false } });
    expect(object.status).toBe(201);
    // a route that reads no body, called with the JSON content type and an empty body (curl with a header list)
    const key = await s.call("POST", "/api/v0/organizations/acme/groups/team/tokens?name=bot", { token: admin, body: "", headers: { "content-type": "application/json" } });
    expect(key.status).toBe(201);
  }, 60_000);
});

describe("cursors", () => {
  test("a forged, edited or garbage cursor is 400 INVALID_CURSOR", async () => {
    for (let i = 0; i < 3; i++) await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: `o${i}` } });
    const page = await s.call("GET", "/api/v0/organizations?limit=1", { token: admin });
    const next = /cursor=([^&>]+)/.exec(page.headers.get("link") ?? "")?.[1];
    expect(next).toBeDefined();
    expect((await s.call("GET", `/api/v0/organizations?limit=1&cursor=${next}`, { token: admin })).status).toBe(200);
    const payload = next!.split(".")[0]!;
    const forged = `${Buffer.from("zzzz").toString("base64url")}.${next!.split(".")[1]}`;
    for (const c of [forged, payload, `${payload}.AAAAAAAAAAAAAAAAAAAAAA`, "bm9wZQ", "%ff", "x".repeat(900), `${next}x`]) {
      const r = await s.call("GET", `/api/v0/organizations?limit=1&cursor=${c}`, { token: admin });
      expect(r.status).toBe(400);
      if (!c.startsWith("%")) expect(r.body.code).toBe("INVALID_CURSOR");
    }
  });
});

describe("health", () => {
  test("/health and /health/ready answer 200 while the database is up", async () => {
    expect((await s.call("GET", "/health")).body).toEqual({ status: "ok" });
    const ready = await s.call("GET", "/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body.database).toBe("ok");
  });
});

describe("OpenAPI", () => {
  test("every operation documents the edge's 400 (INVALID_PATH, INVALID_CURSOR) and 503", async () => {
    const doc = (await s.call("GET", "/api/v0/openapi.json")).body;
    expect(JSON.stringify(doc.components.responses.BadRequest)).toContain("INVALID_PATH");
    expect(JSON.stringify(doc.components.responses.BadRequest)).toContain("INVALID_CURSOR");
    expect(doc.components.responses.ServiceUnavailable.headers["Retry-After"]).toBeDefined();
    const ops = Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(([p, o]) =>
      Object.entries(o).map(([m, op]) => ({ p, m, op })));
    expect(ops.length).toBeGreaterThan(100);
    for (const { p, m, op } of ops) {
      expect({ p, m, has400: "400" in op.responses }).toEqual({ p, m, has400: true });
      if (p !== "/health") expect({ p, m, has503: "503" in op.responses }).toEqual({ p, m, has503: true });
    }
    expect(doc.paths["/health/ready"].get.responses["503"]).toBeDefined();
  });
});
