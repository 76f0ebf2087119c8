/**
 * Every operation of the OpenAPI document declares who may call it: the access
 * macro (src/http/route_access.ts) writes each route's rule into the
 * operation's `x-access` field. An operation without one fails this test,
 * unless it is listed in PENDING (routes whose check is still written by hand
 * in the handler, to be converted); a PENDING entry that now declares a rule,
 * or no longer exists, fails too, so the list only shrinks.
 */
import { afterAll, expect, test } from "bun:test";
import { startTestService } from "../helpers/service.ts";

const s = await startTestService();
afterAll(() => s.close());

const RULE = /^(public|authenticated|system:admin|custom:[a-z-]+|organization:(member|modeler|admin|user-member)|environment:(viewer|modeler|admin|package-viewer)|package:(viewer|modeler|admin)|workspace:(viewer|manager)|document:(viewer|editor)|group:(member|admin)|permissions:(manage|manage-or-own|manage-or-request)|user:self-or-admin|workspace-package:workspace-manager-package-modeler|documents:viewer-of-any)$/;

/** Operations whose access check is still hand-written in the handler (see /work/notes/structure.md). */
const PENDING = new Set<string>([
  "GET /api/v0/status",
  "GET /api/v0/docs",
  "GET /api/v0/organizations/{org}/environments/{env}/packages",
  "POST /api/v0/organizations/{org}/environments/{env}/packages/{pkg}",
  "GET /api/v0/organizations/{org}/projects/{env}/packages",
  "POST /api/v0/organizations/{org}/projects/{env}/packages/{pkg}",
  "GET /api/v0/organizations/{org}/packages",
  "GET /api/v0/organizations/{org}/environments/{env}/packages/{pkg}/models/*",
  "POST /api/v0/organizations/{org}/environments/{env}/packages/{pkg}/models/*",
  "GET /api/v0/organizations/{org}/projects/{env}/packages/{pkg}/models/*",
  "POST /api/v0/organizations/{org}/projects/{env}/packages/{pkg}/models/*",
  "GET /api/v0/organizations/{org}/attributes/{attr}",
  "PUT /api/v0/organizations/{org}/attributes/{attr}/users/{userName}",
  "DELETE /api/v0/organizations/{org}/attributes/{attr}/users/{userName}",
  "PUT /api/v0/organizations/{org}/attributes/{attr}/groups/{group}",
  "DELETE /api/v0/organizations/{org}/attributes/{attr}/groups/{group}",
  "GET /api/v0/organizations/{org}/groups/{group}/attributes",
  "POST /api/v0/retrieval/context",
  "POST /api/v0/retrieval/connection-entities",
  "GET /api/v0/coding/extension-version",
  "GET /api/v0/coding/docs/search",
  "POST /api/v0/coding/docs/answer",
  "GET /api/v0/coding/manifests",
  "GET /api/v0/coding/manifests/{name}/skills",
  "GET /api/v0/watch-mode/status",
  "POST /api/v0/watch-mode/start",
  "POST /api/v0/watch-mode/stop",
  "GET /api/v0/organizations/{org}/environments/{env}/packages/{pkg}/events",
  "GET /api/v0/organizations/{org}/projects/{env}/packages/{pkg}/events",
  "GET /api/v0/organizations/{org}/environments/{env}/packages/{pkg}/app",
  "GET /api/v0/organizations/{org}/environments/{env}/packages/{pkg}/app/*",
  "POST /api/v0/organizations/{org}/environments/{env}/packages/{pkg}/app-token",
  "GET /api/v0/organizations/{org}/projects/{env}/packages/{pkg}/app",
  "GET /api/v0/organizations/{org}/projects/{env}/packages/{pkg}/app/*",
  "POST /api/v0/organizations/{org}/projects/{env}/packages/{pkg}/app-token",
  "POST /api/v0/organizations/{org}/demo-environment",
  "POST /api/v0/demo/organizations",
  "POST /oauth/register",
  "GET /oauth/authorize",
  "POST /oauth/authorize",
  "POST /oauth/token",
  "POST /oauth/revoke",
  "POST /mcp/{org}",
  "GET /mcp/{org}",
  "DELETE /mcp/{org}",
  "POST /mcp/{org}/workspace/{workspace_name}",
  "GET /mcp/{org}/workspace/{workspace_name}",
  "DELETE /mcp/{org}/workspace/{workspace_name}",
]);

test("every OpenAPI operation declares an access rule (x-access)", async () => {
  const res = await s.call("GET", "/api/v0/openapi.json");
  expect(res.status).toBe(200);
  const doc = res.body as { paths: Record<string, Record<string, { "x-access"?: string }>> };
  const undeclared: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const key = `${method.toUpperCase()} ${path}`;
      seen.add(key);
      const rule = op["x-access"];
      if (rule === undefined) {
        if (!PENDING.has(key)) undeclared.push(key);
      } else if (!RULE.test(rule)) {
        invalid.push(`${key}: ${rule}`);
      } else if (PENDING.has(key)) {
        invalid.push(`${key} declares ${rule}: remove it from PENDING`);
      }
    }
  }
  const gone = [...PENDING].filter((k) => !seen.has(k));
  expect({ undeclared, invalid, gone }).toEqual({ undeclared: [], invalid: [], gone: [] });
  expect(seen.size).toBeGreaterThan(PENDING.size);
});
