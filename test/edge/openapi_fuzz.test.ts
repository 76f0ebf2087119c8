/**
 * Fuzzing from the OpenAPI document: every operation of GET /api/v0/openapi.json
 * gets malformed path values (encoded dot segments, NUL, surrogates, overlong
 * UTF-8, huge and wrong identifiers), malformed bodies (wrong types, deep
 * nesting, huge strings, NUL, unpaired surrogates, non-objects, oversize),
 * no credentials and the token of an administrator of another organization.
 * No answer may be a 5xx, take over 5 s or name a server directory, and when
 * every request to an operation was refused, no table's row count changed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { API, publish, type World, startWorld } from "../packages/helpers.ts";

// No run at publish: a background index build would change row counts under the checksum.
const w: World = await startWorld({ INDEX_ON_PUBLISH: "false" });
afterAll(() => w.s.close());
const { s, admin } = w;

// What valid path values point at: an organization with an environment, a published package, a group and a workspace.
const published = await publish(w, "flights", "1.0.0", { token: admin });
if (published.status !== 201) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
await s.call("POST", `${API}/organizations/acme/groups`, { token: admin, body: { name: "team" } });
await s.call("POST", `${API}/organizations/acme/workspaces`, { token: admin, body: { name: "ws1" } });
// Mallory administers her own organization and nothing of acme.
const mallory = await s.createUser("mallory");
await s.call("POST", `${API}/organizations`, { token: admin, body: { name: "evil" } });
await s.call("POST", `${API}/organizations/evil/permissions`, { token: admin, body: { userGroupId: "user:mallory", permission: "admin" } });

const doc = (await s.call("GET", `${API}/openapi.json`)).body as {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> }; parameters?: { name: string; in: string }[] }>>;
};

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
}

const VALID: Record<string, string> = {
  organizationName: "acme",
  projectName: "prod",
  packageName: "flights",
  versionId: "1.0.0",
  group: "team",
  ws: "ws1",
  workspace_name: "ws1",
  userName: "admin",
  principal: "user:admin",
  conn: "c1",
  attr: "a1",
  tokenName: "t1",
  bookmarkType: "package",
  objectId: "x1",
  token: "x1",
  name: "models/flights.malloy",
  runId: crypto.randomUUID(),
  indexId: crypto.randomUUID(),
  materializationId: crypto.randomUUID(),
  documentId: crypto.randomUUID(),
};

/** Path values that must be refused (4xx), whatever the route. */
const BAD_SEGMENTS = [
  "%2E%2E", "..%2f..%2fetc", "%252e%252e", "%c0%ae%c0%ae", "a%00b", "%ed%a0%80", "%0d%0aX-Injected:%201",
  "x".repeat(300), "%27%3B%20DROP%20TABLE%20users%3B--", "%F0%9F%92%A9",
];

const DEEP = "[".repeat(20_000) + "]".repeat(20_000);
/** Whole bodies that must be refused. */
const BAD_BODIES = ["[]", '"text"', "42", "null", "true", `{"a":${DEEP}}`, '{"a":"\\u0000"}', '{"a":"\\ud800"}', "{not json", `{"a":"${"y".repeat(2 * 1024 * 1024 + 1)}"}`];

function badFieldValues(schema: Schema | undefined): unknown[] {
  switch (schema?.type) {
    case "string":
      return [12345, { nested: true }, "nul\u0000inside", "\uD800", "z".repeat(200_000)];
    case "number":
    case "integer":
      return ["NaN", {}, 1e308];
    case "boolean":
      return ["true", 0, null];
    case "array":
      return ["not-a-list", { 0: 1 }, Array.from({ length: 5_000 }, () => "\u0000")];
    default:
      return [[], "text", 0, null];
  }
}

/** Row counts of every table of the platform database, as one string. */
async function checksum(): Promise<string> {
  const tables = await s.service.db.sql<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`;
  // Tables that record refusals on purpose (query logs, sign-in attempt counters) are left out.
  const counted = tables.map((t) => t.name).filter((n) => !/log|attempt|failure|lockout/.test(n));
  const [row] = await s.service.db.sql.unsafe(
    `SELECT ${counted.map((n) => `(SELECT count(*) FROM "${n}")::text`).join(" || ',' || ")} AS sum`,
  );
  return row!.sum as string;
}

interface Answer {
  status: number;
  ms: number;
  label: string;
  /** A server directory the answer named, if any. */
  leak?: string;
}

const SERVER_ROOTS = [w.dataDir, process.cwd()];

async function send(method: string, path: string, init: { token?: string; body?: string; type?: string }, label: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = init.type ?? "application/json";
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abort = new AbortController();
  const request = new Request(`http://localhost${path}`, { method, headers, body: init.body, signal: abort.signal });
  const timeout = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve({ status: -1, ms: 5000, label }), 5000);
  });
  const answer = s.service.handle(request).then(async (response) => {
    // Event streams answer at once and then stay open: the headers are the answer.
    if ((response.headers.get("content-type") ?? "").includes("event-stream")) abort.abort();
    else {
      const text = await response.text();
      const leak = SERVER_ROOTS.find((root) => text.includes(root));
      if (leak) return { status: response.status, ms: performance.now() - started, label, leak };
    }
    return { status: response.status, ms: performance.now() - started, label };
  });
  const result = await Promise.race([answer, timeout]);
  clearTimeout(timer);
  // A request over the limit is recorded as a hang, then awaited, so that it cannot change rows under the next operation's checksum.
  if (result.status === -1) await answer.catch(() => undefined);
  abort.abort();
  return result;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? "x1");
}

const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
);

describe("every operation of the OpenAPI document refuses malformed requests cleanly", () => {
  test("the document lists the operations", () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  for (const { path, method, op } of operations) {
    test(`${method} ${path}`, async () => {
      const before = await checksum();
      const answers: Answer[] = [];
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      // Malformed path values, one parameter at a time, as the system administrator.
      for (const name of names) {
        // The variants of one parameter go out together (they are all refused; the checksum is taken around the batch).
        answers.push(...await Promise.all(BAD_SEGMENTS.map((bad) =>
          send(method, fill(path, { ...VALID, [name]: bad }), { token: admin }, `path ${name}=${bad.slice(0, 30)}`)
        )));
      }
      const target = fill(path, VALID);
      // Malformed query strings (a forged cursor on reads: a write with a valid path and no body may succeed).
      answers.push(await send(method, `${target}?limit=%00&cursor=%ff`, { token: admin }, "query NUL/invalid UTF-8"));
      if (method === "GET") answers.push(await send(method, `${target}?cursor=bm9wZQ.AAAAAAAAAAAAAAAAAAAAAA&limit=1`, { token: admin }, "forged cursor"));
      // Malformed bodies, on operations that take one.
      const json = op.requestBody?.content?.["application/json"]?.schema;
      if (method !== "GET" && method !== "DELETE") {
        // One at a time: a body a route accepts (e.g. the self-service demo organization) does real work.
        for (const body of BAD_BODIES) answers.push(await send(method, target, { token: admin, body }, `body ${body.slice(0, 20)}`));
        for (const [field, schema] of Object.entries(json?.properties ?? {})) {
          answers.push(...await Promise.all(badFieldValues(schema).map((value) =>
            send(method, target, { token: admin, body: JSON.stringify({ [field]: value }) }, `field ${field}=${JSON.stringify(value)?.slice(0, 20)}`)
          )));
        }
      }
      // No credentials, an invalid token, and a token of another organization's administrator.
      answers.push(await send(method, target, {}, "no token"));
      answers.push(await send(method, target, { token: "not.a.jwt" }, "garbage token"));
      const foreign = await send(method, target, { token: mallory, body: method === "GET" || method === "DELETE" ? undefined : "{}" }, "foreign token");
      answers.push(foreign);

      const broken = answers.filter((a) => a.status >= 500 || a.status === -1 || a.ms > 5000);
      expect(broken.map((a) => `${a.label}: ${a.status}`)).toEqual([]);
      // Refusals never name a server directory, and nothing answered to a caller without access does.
      const mustNotLeak = answers.filter((a) => a.status >= 400 || a.label === "foreign token" || a.label === "no token");
      expect(mustNotLeak.filter((a) => a.leak).map((a) => `${a.label}: names ${a.leak}`)).toEqual([]);
      if (names.includes("organizationName") && !path.startsWith("/mcp")) {
        // 3xx: the in-package app's trailing-slash redirect, the same for any name.
        expect(foreign.status).toBeGreaterThanOrEqual(300);
      }
      if (answers.every((a) => a.status >= 400)) expect(await checksum()).toBe(before);
    }, 60_000);
  }
});
