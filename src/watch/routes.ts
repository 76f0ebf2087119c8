/**
 * Watch-mode routes of the data family: `GET /watch-mode/status`,
 * `POST /watch-mode/start` `{ organizationName?, environmentName }` and
 * `POST /watch-mode/stop`. Each organization has its own slot; status and
 * stop take `?organizationName=` (optional when the caller sees one watch).
 * @module
 */
import { Elysia, t } from "elysia";
import { effectiveRank, isSystemAdmin, MODEL, principalKey, READ } from "../http/access.ts";
import { required } from "../http/auth.ts";
import type { AppContext } from "../http/context.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { name } from "../http/params.ts";
import type { Principal } from "../http/principal.ts";
import { routeAccess } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { environmentFor, organizationRank } from "../environments/lookup.ts";
import {
  startWatching,
  stopWatching,
  watchedEnvironment,
  watchingOrganizations,
  watchStatus,
  type WatchStatus,
} from "./watcher.ts";

const orgQuery = t.Object({ organizationName: t.Optional(name("organizationName")) });

const startBody = t.Object({
  organizationName: t.Optional(name("organizationName")),
  environmentName: name("environmentName"),
});

/** The organization of `environmentName` when the body names none: the caller's only visible environment of that name. */
async function organizationOf(ctx: AppContext, principal: Principal, environmentName: string): Promise<string> {
  if (principal.kind === "group") return principal.orgName;
  const p = principalKey(principal);
  const rows = await ctx.sql`SELECT o.name FROM environments e JOIN organizations o ON o.id = e.org_id
                              WHERE e.name = ${environmentName}
                                AND effective_rank(${p.kind}, ${p.id}::uuid, 'environment', e.id) >= ${READ}
                              ORDER BY o.name LIMIT 2`;
  if (rows.length === 0) throw notFound(`environment '${environmentName}' not found`);
  if (rows.length > 1) {
    throw badRequest(`environment '${environmentName}' exists in several of your organizations; add organizationName to the body`);
  }
  return rows[0]!.name as string;
}

/** Whether the caller may read the environment an organization watches. */
async function readsWatched(ctx: AppContext, principal: Principal, orgId: string): Promise<boolean> {
  const watched = watchedEnvironment(ctx, orgId);
  if (!watched) return false;
  if (isSystemAdmin(principal)) return true;
  return await effectiveRank(ctx.sql, principal, { kind: "environment", id: watched.envId }) >= READ;
}

/**
 * The organization a status or stop request is about: the named one (404 when
 * the caller can't see it), a group key's own, or else the one watch the
 * caller can read (none: `null`, several: 400 asking for the name). Watches
 * the caller can't read are never counted, so the answer tells nothing about
 * other organizations.
 */
async function targetOrganization(ctx: AppContext, principal: Principal, orgName: string | undefined): Promise<string | null> {
  if (orgName) {
    const org = await organizationRank(ctx.sql, principal, orgName);
    if (org.rank < READ && !(await readsWatched(ctx, principal, org.id))) throw notFound(`organization '${orgName}' not found`);
    return org.id;
  }
  if (principal.kind === "group") return (await organizationRank(ctx.sql, principal, principal.orgName)).id;
  const readable: string[] = [];
  for (const orgId of watchingOrganizations(ctx)) if (await readsWatched(ctx, principal, orgId)) readable.push(orgId);
  if (readable.length > 1) throw badRequest("watch mode is on in several of your organizations; add ?organizationName=");
  return readable[0] ?? null;
}

/** The status as the caller may see it: names and packages only with read access to the watched environment. */
async function visibleStatus(ctx: AppContext, principal: Principal, orgId: string | null): Promise<WatchStatus> {
  const status = watchStatus(ctx, orgId);
  if (isSystemAdmin(principal)) return status;
  // The watched folder is a server path: only the system administrator, who configures WATCH_ROOT, sees it.
  const withoutRoot = { ...status, root: "" };
  if (!orgId || !status.enabled || await readsWatched(ctx, principal, orgId)) return withoutRoot;
  return { ...withoutRoot, organizationName: null, environmentName: null, packages: [] };
}

/** The rule of stopping: the system administrator, or an admin or modeler of the watched environment (403). */
async function requireWatchedModeler(ctx: AppContext, principal: Principal, orgId: string): Promise<void> {
  const watched = watchedEnvironment(ctx, orgId);
  if (!watched || isSystemAdmin(principal)) return;
  const rank = await effectiveRank(ctx.sql, principal, { kind: "environment", id: watched.envId });
  if (rank < MODEL) throw forbidden("stopping watch mode needs the admin or modeler role on the watched environment");
}

const STATUS_DOC = "`{ enabled, organizationName, environmentName, root, startedAt, debounceMs, packages: [{ name, state " +
  "(idle|pending|publishing|error), lastVersionId, lastError, lastChangeAt, subscribers }] }`. Names and packages " +
  "are shown only to callers who can read the watched environment, the folder (`root`) only to the system administrator. " +
  "Watch mode is per node and per organization: `?organizationName=` picks the organization (optional when the caller can read exactly one watch).";

/** Routes of watch mode. */
export function watchRoutes(ctx: AppContext) {
  const tags = ["data"];
  return new Elysia({ prefix: "/watch-mode" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .get("/status", async ({ principal, query }) => {
      const p = required(principal);
      return await visibleStatus(ctx, p, await targetOrganization(ctx, p, query.organizationName));
    }, {
      query: orgQuery,
      // targetOrganization: the named organization when the caller sees it or reads its watch (404 otherwise)
      access: "custom:organization-or-watch-reader",
      detail: { summary: "Watch-mode status of an organization on this node", description: STATUS_DOC, tags },
    })
    .post(
      "/start",
      async ({ principal, body }) => {
        const p = required(principal);
        const orgName = body.organizationName ?? await organizationOf(ctx, p, body.environmentName);
        const env = await environmentFor(ctx, p, { org: orgName, env: body.environmentName, need: MODEL });
        return await startWatching(ctx, {
          orgId: env.orgId,
          orgName,
          envName: env.name,
          envId: env.id,
          startedBy: p.kind === "user" ? p.userId : null,
        });
      },
      {
        body: startBody,
        // environmentFor(need: MODEL) on the environment named in the body
        access: "custom:environment-modeler-named-in-body",
        detail: {
          summary: "Start watching an environment's package folders (environment admin or modeler; one environment per organization at a time, 409 otherwise)",
          description: "Watches `WATCH_ROOT/<organizationName>/<environmentName>/` (`WATCH_ROOT` defaults to `DATA_DIR/watch`; the " +
            "folder is created when missing). Each sub-folder is a package (publisher.json, models, data, optional public/). " +
            "Before answering, every package folder whose content differs from its newest version is published. Then every " +
            "change emits `change` on the package's event stream and, after `WATCH_DEBOUNCE_MS` (200) of quiet, republishes the " +
            "package as the next patch version (0.1.0 first) through the publish code of the API: every model must compile; " +
            "when one does not, no version is created and `error` carries the problems. Hidden files and editor swap files are " +
            "ignored. `organizationName` may be left out when the caller sees only one environment of that name. Each " +
            "organization watches one environment at a time per node: starting another of the same organization answers 409 " +
            "(stop first); starting the watched one again is a no-op; other organizations are not affected. " + STATUS_DOC,
          tags,
        },
      },
    )
    .post(
      "/stop",
      async ({ principal, query }) => {
        const p = required(principal);
        const orgId = await targetOrganization(ctx, p, query.organizationName);
        if (!orgId) return isSystemAdmin(p) ? watchStatus(ctx, null) : { ...watchStatus(ctx, null), root: "" };
        await requireWatchedModeler(ctx, p, orgId);
        const stopped = stopWatching(ctx, orgId);
        return isSystemAdmin(p) ? stopped : { ...stopped, root: "" };
      },
      {
        query: orgQuery,
        // targetOrganization, then requireWatchedModeler
        access: "custom:watched-environment-modeler",
        detail: {
          summary: "Stop an organization's watch mode (admin or modeler of the watched environment; a no-op when off); answers the status",
          tags,
        },
      },
    );
}
