/**
 * Access as one declared mechanism: every route states who may call it with a
 * route option (an Elysia macro), and the rule loads the resource, decides and
 * hands the handler what it loaded. This module offers the mechanism and the
 * rules on no single resource; each capability declares its own rules next to
 * its routes (`route_rules.ts` of organizations, environments, packages,
 * workspaces, documents, groups, permissions, watch and users), built with
 * {@link accessRule} and {@link accessCheck}. One key per level, each with one
 * resolved shape (`pkgAccess` resolves `pkg`, `envAccess` resolves `env`, ...).
 *
 * - `access: "public" | "authenticated" | "user" | "system:admin" | "custom:<name>"` for
 *   operations on no single resource, or whose rule is a named domain function
 *   (for example publish: package modeler, or environment modeler when new).
 *
 * The caller must see the resource (404 otherwise, no existence leak) and hold
 * the role (403 otherwise); the decision is the lookups' one call of
 * `effective_rank`. Every rule also writes itself into the operation's OpenAPI
 * `x-access` field, which test/foundation/access_declared.test.ts checks for
 * every operation.
 * @module
 */
import { Elysia } from "elysia";
import { isSystemAdmin, type Principal } from "../access/principal.ts";
import type { AppContext } from "../context.ts";
import { ForbiddenError } from "../errors.ts";
import { required, requiredUser } from "./auth.ts";
import { security } from "./security.ts";

/**
 * Rules on no single resource: `public` (anyone), `authenticated` (any caller
 * with credentials, 401 otherwise), `user` (a user's token; API keys: 403), `system:admin` (403 for others), or
 * `custom:<name>`: the decision is the named domain function the handler calls.
 */
export type NamedRule = "public" | "authenticated" | "user" | "system:admin" | `custom:${string}`;

/** What a rule decides on: the caller (`principal`, from the security plugin) and the request's parts. */
export interface RuleInput {
  principal?: Principal | null;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  request: Request;
}

/** The OpenAPI extension naming an operation's rule. */
const ACCESS_FIELD = "x-access";

function declared(rule: string) {
  // the `detail` type lists only OpenAPI's own fields; extensions are allowed by the spec
  return { [ACCESS_FIELD]: rule } as { summary?: string };
}

/**
 * A route option that loads and decides: `name(need)` is the rule written into
 * `x-access`; `decide` returns what the handler receives (e.g. `{ pkg }`) or
 * throws the 401/403/404 of a caller who may not call the route. Use it as a
 * value of `.macro({ key: accessRule(...) })` on a plugin that uses `security(ctx)`.
 */
export function accessRule<Need, Out extends Record<string, unknown>>(
  name: (need: Need) => string,
  decide: (input: RuleInput, need: Need) => Promise<Out>,
) {
  return (need: Need) => ({
    detail: declared(name(need)),
    async resolve(input: RuleInput): Promise<Out> {
      return await decide(input, need);
    },
  });
}

/** A route option that decides loading nothing (see {@link accessRule}): `check` throws 401/403/404 or returns. */
export function accessCheck<Need>(name: (need: Need) => string, check: (input: RuleInput, need: Need) => void) {
  return (need: Need) => ({
    detail: declared(name(need)),
    beforeHandle(input: RuleInput): void {
      check(input, need);
    },
  });
}

/** A rule on no single resource (see {@link NamedRule}); a `custom:` rule is decided by the domain function it names. */
function namedRule(input: RuleInput, rule: NamedRule): void {
  if (rule === "public" || rule.startsWith("custom:")) return;
  const p = rule === "user" ? requiredUser(input.principal ?? null) : required(input.principal ?? null);
  if (rule === "system:admin" && !isSystemAdmin(p)) throw new ForbiddenError("this operation needs a system administrator");
}

/**
 * Elysia plugin adding only `access: "public" | "custom:<name>"`, for routes
 * outside the authenticated groups (health, sign-in pages, OAuth endpoints, the
 * MCP endpoint, which authenticates its own bearer tokens): it declares the
 * rule and derives nothing, so those routes keep running without the request
 * authenticator; a `custom:` rule here is decided by the domain function it names.
 */
export const publicAccess = new Elysia({ name: "public-access" }).macro({
  access: (rule: "public" | `custom:${string}`) => ({ detail: declared(rule) }),
});

/** Elysia plugin adding the `access` route option of rules on no single resource (see {@link NamedRule}). */
export function routeAccess(ctx: AppContext) {
  return new Elysia({ name: "route-access", seed: ctx.id })
    .use(security(ctx))
    .macro({
      access: accessCheck((rule: NamedRule) => rule, namedRule),
    });
}
