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

const RULE = /^(public|authenticated|user|system:admin|custom:[a-z-]+|organization:(member|modeler|admin|user-member|admin-or-self|workspace-creator|member-or-environment-viewer|member-or-package-viewer)|environment:(viewer|modeler|admin|package-viewer)|package:(viewer|modeler|admin|modeler-or-new-in-environment)|workspace:(viewer|manager)|document:(viewer|editor)|group:(member|admin)|permissions:(manage|manage-or-own|manage-or-request)|user:self-or-admin|workspace-package:workspace-manager-package-modeler|documents:viewer-of-any|watch:(reader|modeler|environment-modeler-named-in-body))$/;

/** Operations whose access check is still hand-written in the handler: none; the list may only shrink. */
const PENDING = new Set<string>([
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
