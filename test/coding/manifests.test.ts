import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { readConfig } from "../../src/config.ts";

setDefaultTimeout(60_000);

const API = "/api/v0";
let s: TestService;
let token: string;
let apiKey: string;

beforeAll(async () => {
  s = await startTestService({ EXTENSION_MIN_VERSION: "1.2.0", EXTENSION_LATEST_VERSION: "1.4.1" });
  token = await s.adminToken();
  await s.call("POST", `${API}/organizations`, { token, body: { name: "acme" } });
  await s.call("POST", `${API}/organizations/acme/groups`, { token, body: { name: "bots" } });
  apiKey = (await s.call("POST", `${API}/organizations/acme/groups/bots/tokens?name=k`, { token })).body.secret;
}, 120_000);
afterAll(() => s.close());

describe("GET /coding/manifests", () => {
  test("lists the shipped assistant manifests", async () => {
    const r = await s.call("GET", `${API}/coding/manifests`, { token });
    expect(r.status).toBe(200);
    expect(r.body.map((m: { name: string }) => m.name)).toEqual(["malloy-analyst", "malloy-modeler"]);
    const analyst = r.body[0];
    expect(analyst).toMatchObject({ title: "Malloy analyst", version: "1.0.0" });
    expect(analyst.tools).toEqual(expect.arrayContaining(["get_context", "execute_query"]));
    expect(analyst.skillCategories).toEqual(expect.arrayContaining(["discovery", "querying"]));
    expect(analyst.description.length).toBeGreaterThan(20);
  });
  test("API keys may list; anonymous is 401", async () => {
    expect((await s.call("GET", `${API}/coding/manifests`, { apiKey })).status).toBe(200);
    expect((await s.call("GET", `${API}/coding/manifests`)).status).toBe(401);
  });
});

describe("GET /coding/manifests/{name}/skills", () => {
  test("categorized skills with instructions", async () => {
    const r = await s.call("GET", `${API}/coding/manifests/malloy-modeler/skills`, { apiKey });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("malloy-modeler");
    expect(Object.keys(r.body.skills)).toEqual(expect.arrayContaining(["modeling", "documentation", "publishing"]));
    const names = r.body.skills.modeling.map((k: { name: string }) => k.name);
    expect(names).toContain("add_joins");
    for (const skill of Object.values(r.body.skills).flat() as { description: string; instructions: string }[]) {
      expect(skill.description.length).toBeGreaterThan(0);
      expect(skill.instructions.length).toBeGreaterThan(0);
    }
    expect(r.body.skills.documentation[0].instructions).toContain("#(doc)");
  });
  test("unknown manifest is 404 naming the known ones; a bad name is 400; anonymous 401", async () => {
    const r = await s.call("GET", `${API}/coding/manifests/nope/skills`, { token });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect(r.body.message).toContain("malloy-analyst");
    expect((await s.call("GET", `${API}/coding/manifests/a.b/skills`, { token })).status).toBe(400);
    expect((await s.call("GET", `${API}/coding/manifests/malloy-modeler/skills`)).status).toBe(401);
  });
});

describe("GET /coding/extension-version (no authentication)", () => {
  test("an older version is unsupported and told to update", async () => {
    const r = await s.call("GET", `${API}/coding/extension-version?version=1.1.9`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: "1.1.9", supported: false, minimum: "1.2.0", latest: "1.4.1", message: expect.stringContaining("update") });
  });
  test("the minimum is supported with an update available; latest and newer are up to date", async () => {
    const min = await s.call("GET", `${API}/coding/extension-version?version=1.2.0`);
    expect(min.body).toMatchObject({ supported: true, message: expect.stringContaining("1.4.1 is available") });
    expect((await s.call("GET", `${API}/coding/extension-version?version=1.4.1`)).body.message).toContain("up to date");
    expect((await s.call("GET", `${API}/coding/extension-version?version=2.0.0-beta.1`)).body.supported).toBe(true);
    expect((await s.call("GET", `${API}/coding/extension-version?version=1.10.0`)).body.supported).toBe(true);
  });
  test("works even with a bad Authorization header", async () => {
    const r = await s.call("GET", `${API}/coding/extension-version?version=1.3.0`, { headers: { authorization: "Bearer garbage" } });
    expect(r.status).toBe(200);
  });
  test("an invalid or missing version is 400", async () => {
    for (const v of ["1.2", "abc", "1.2.3.4", ""]) {
      const r = await s.call("GET", `${API}/coding/extension-version?version=${v}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await s.call("GET", `${API}/coding/extension-version`)).status).toBe(400);
  });
  test("defaults are 0.1.0; a bad configured bound refuses to start", () => {
    expect(readConfig({})).toMatchObject({ extensionMinVersion: "0.1.0", extensionLatestVersion: "0.1.0" });
    expect(() => readConfig({ EXTENSION_MIN_VERSION: "one" })).toThrow("EXTENSION_MIN_VERSION");
  });
});
