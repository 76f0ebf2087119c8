/**
 * The OpenAPI document as the specification names it, checked by tools a
 * client would use: it validates (@apidevtools/swagger-parser); path
 * parameters are `organizationName`, `projectName`, `packageName`,
 * `versionId`; each operation is listed once (the `/projects/` aliases are
 * folded, but the specification's update-version path); `Error.code` is
 * exactly the codes the service emits; and a client generated from it
 * (openapi-typescript 6 types + openapi-fetch; openapi-typescript 7 needs the TypeScript 5 compiler API, which TypeScript 7 does not have) compiles and calls three
 * operations against the running service.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS from "openapi-typescript";
import { startTestService, type TestService } from "../helpers/service.ts";
import { serveOnLoopback, type Served } from "../helpers/mcp.ts";

type Op = { parameters?: { name: string; in: string; schema?: { default?: unknown } }[]; description?: string };
type Doc = { openapi: string; paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, { properties: { code: { enum?: string[] } } }> } };

const METHODS = ["get", "put", "post", "patch", "delete"];
const SEED_PATH = "/api/v0/organizations/{organizationName}/projects/{projectName}/packages/{packageName}/versions/{versionId}";

let s: TestService;
let served: Served;
let doc: Doc;

beforeAll(async () => {
  s = await startTestService();
  served = serveOnLoopback(s.service.handle);
  const r = await s.call("GET", "/api/v0/openapi.json");
  expect(r.status).toBe(200);
  doc = r.body as Doc;
}, 120_000);
afterAll(async () => {
  served?.stop();
  await s?.close();
}, 120_000);

describe("the OpenAPI document", () => {
  test("validates as OpenAPI 3.1 (swagger-parser)", async () => {
    const checked = await SwaggerParser.validate(structuredClone(doc) as never);
    expect((checked as { openapi: string }).openapi).toStartWith("3.1");
  });

  test("path parameters carry the specification's names; URLs are unchanged", async () => {
    const templates = Object.keys(doc.paths).join("\n");
    for (const old of ["{org}", "{env}", "{pkg}"]) expect(templates).not.toContain(old);
    const patch = doc.paths[SEED_PATH]?.patch;
    expect(patch?.parameters?.filter((p) => p.in === "path").map((p) => p.name)).toEqual(["organizationName", "projectName", "packageName", "versionId"]);
    const get = doc.paths["/api/v0/organizations/{organizationName}/environments/{projectName}/packages/{packageName}"]?.get;
    expect(get?.parameters?.filter((p) => p.in === "path").map((p) => p.name)).toEqual(["organizationName", "projectName", "packageName"]);
    // the routes still answer both spellings
    const admin = await s.adminToken();
    expect((await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "docorg" } })).status).toBe(201);
    expect((await s.call("POST", "/api/v0/organizations/docorg/environments", { token: admin, body: { name: "prod" } })).status).toBe(201);
    expect((await s.call("GET", "/api/v0/organizations/docorg/projects/prod", { token: admin })).status).toBe(200);
  });

  test("each operation is listed once: /projects/ aliases are folded, but the specification's update-version path", () => {
    const seen = new Map<string, string[]>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        if (!item[method]) continue;
        const key = `${method} ${path.replace("/projects", "/environments").replace(/\/$/, "")}`;
        seen.set(key, [...(seen.get(key) ?? []), path]);
      }
    }
    expect([...seen].filter(([, paths]) => paths.length > 1)).toEqual([]);
    const aliases = Object.keys(doc.paths).filter((p) => p.includes("/projects"));
    expect(aliases).toEqual([SEED_PATH]);
    expect(Object.keys(doc.paths[SEED_PATH]!)).toEqual(["patch"]);
    expect(doc.paths[SEED_PATH]!.patch!.description).toContain("/environments/{projectName}/packages/{packageName}/versions/{versionId}");
    const folded = doc.paths["/api/v0/organizations/{organizationName}/environments/{projectName}/packages/{packageName}/runs"]!.get!;
    expect(folded.description).toContain("/projects/{projectName}/packages/{packageName}/runs");
  });

  test("Error.code lists exactly the codes the service emits", async () => {
    const codes = doc.components.schemas.Error!.properties.code.enum!;
    expect([...codes].sort()).toEqual([
      "AUTHENTICATION_REQUIRED", "CONFLICT", "INSUFFICIENT_PERMISSIONS", "INTERNAL_ERROR", "INVALID_CURSOR", "INVALID_PATH",
      "PACKAGE_TOO_LARGE", "QUERY_NOT_ALLOWED", "RATE_LIMIT_EXCEEDED", "RESOURCE_NOT_FOUND", "SERVICE_UNAVAILABLE", "VALIDATION_ERROR",
    ]);
    // every code written in the sources is one of them (FORBIDDEN and NOT_FOUND are not emitted)
    const glob = new Bun.Glob("src/**/*.ts");
    const emitted = new Set<string>();
    for await (const file of glob.scan({ cwd: join(import.meta.dir, "../..") })) {
      const text = await Bun.file(join(import.meta.dir, "../..", file)).text();
      for (const m of text.matchAll(/(?:new ApiError\(|code: )"([A-Z_]+)"/g)) emitted.add(m[1]!);
    }
    expect([...emitted].filter((c) => !codes.includes(c))).toEqual([]);
    expect(codes).not.toContain("FORBIDDEN");
    expect(codes).not.toContain("NOT_FOUND");
  });

  test("onlyShareable documents its default, true", () => {
    const param = doc.paths["/api/v0/organizations/{organizationName}/packages"]!.get!.parameters!.find((p) => p.name === "onlyShareable");
    expect(param?.schema?.default).toBe(true);
  });
});

describe("a client generated from the document", () => {
  test("openapi-typescript types + openapi-fetch compile and call three operations", async () => {
    const root = join(import.meta.dir, "../..");
    await mkdir(join(root, "tmp"), { recursive: true });
    const dir = await mkdtemp(join(root, "tmp", "openapi-client-"));
    try {
      await Bun.write(join(dir, "schema.ts"), await openapiTS(structuredClone(doc) as never));
      await Bun.write(join(dir, "client.ts"), `import createClient from "openapi-fetch";
import type { paths } from "./schema.ts";

/** Three operations through the generated client; each returns its typed data. */
export async function callThree(baseUrl: string, token: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const created = await client.POST("/api/v0/organizations/{organizationName}/environments", {
    params: { path: { organizationName: "clientorg" } },
    body: { name: "staging", description: "made by the generated client" },
  });
  const environment = await client.GET("/api/v0/organizations/{organizationName}/environments/{projectName}", {
    params: { path: { organizationName: "clientorg", projectName: "staging" } },
  });
  const packages = await client.GET("/api/v0/organizations/{organizationName}/packages", {
    params: { path: { organizationName: "clientorg" }, query: { onlyShareable: false } },
  });
  const missing = await client.GET("/api/v0/organizations/{organizationName}", { params: { path: { organizationName: "nope" } } });
  return {
    created: { status: created.response.status, name: created.data?.name },
    environment: { status: environment.response.status, description: environment.data?.description },
    packages: { status: packages.response.status, count: packages.data?.length },
    missing: { status: missing.response.status, code: missing.error?.code },
  };
}
`);
      await Bun.write(join(dir, "tsconfig.json"), JSON.stringify({
        compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "bundler", lib: ["ES2023", "DOM"], strict: true, noEmit: true, skipLibCheck: true, allowImportingTsExtensions: true, types: [] },
        include: ["*.ts"],
      }));
      const tsc = Bun.spawnSync([process.execPath, "x", "tsc", "-p", join(dir, "tsconfig.json")], { cwd: root, stdout: "pipe", stderr: "pipe" });
      expect(`${tsc.stdout.toString()}${tsc.stderr.toString()}`.trim()).toBe("");
      expect(tsc.exitCode).toBe(0);
      const admin = await s.adminToken();
      expect((await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "clientorg" } })).status).toBe(201);
      const { callThree } = await import(join(dir, "client.ts"));
      expect(await callThree(served.url, admin)).toEqual({
        created: { status: 201, name: "staging" },
        environment: { status: 200, description: "made by the generated client" },
        packages: { status: 200, count: 0 },
        missing: { status: 404, code: "RESOURCE_NOT_FOUND" },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
