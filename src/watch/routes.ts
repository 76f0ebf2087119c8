/**
 * Watch-mode routes of the data family: `GET /watch-mode/status`,
 * `POST /watch-mode/start` `{ organizationName?, environmentName }` and
 * `POST /watch-mode/stop`.
 * @module
 */
import { Elysia, t } from "elysia";
import { effectiveRank, isSystemAdmin, MODEL, principalKey, READ } from "../http/access.ts";
import { required } from "../http/auth.ts";
import type { AppContext } from "../http/context.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { name } from "../http/params.ts";
import type { Principal } from "../http/principal.ts";
import { security } from "../http/security.ts";
import { environmentFor } from "../environments/routes.ts";
import { startWatching, stopWatching, watchedEnvironment, watchStatus, type WatchStatus } from "./watcher.ts";

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

/** The status as the caller may see it: names and packages only with read access to the watched environment. */
async function visibleStatus(ctx: AppContext, principal: Principal): Promise<WatchStatus> {
  const status = watchStatus(ctx);
  const envId = watchedEnvironment(ctx);
  if (isSystemAdmin(principal)) return status;
  // The watched folder is a server path: only the system administrator, who configures WATCH_ROOT, sees it.
  const withoutRoot = { ...status, root: "" };
  if (!envId) return withoutRoot;
  if (await effectiveRank(ctx.sql, principal, { kind: "environment", id: envId }) >= READ) return withoutRoot;
  return { ...withoutRoot, organizationName: null, environmentName: null, packages: [] };
}

const STATUS_DOC = "`{ enabled, organizationName, environmentName, root, startedAt, debounceMs, packages: [{ name, state " +
  "(idle|pending|publishing|error), lastVersionId, lastError, lastChangeAt, subscribers }] }`. Names and packages " +
  "are shown only to callers who can read the watched environment, the folder (`root`) only to the system administrator. " +
  "Watch mode is per node.";

/** Routes of watch mode. */
export function watchRoutes(ctx: AppContext) {
  const tags = ["data"];
  return new Elysia({ prefix: "/watch-mode" })
    .use(security(ctx))
    .get("/status", async ({ principal }) => await visibleStatus(ctx, required(principal)), {
      detail: { summary: "Watch-mode status of this node", description: STATUS_DOC, tags },
    })
    .post(
      "/start",
      async ({ principal, body }) => {
        const p = required(principal);
        const orgName = body.organizationName ?? await organizationOf(ctx, p, body.environmentName);
        const env = await environmentFor(ctx, p, { org: orgName, env: body.environmentName, need: MODEL });
        return await startWatching(ctx, {
          orgName,
          envName: env.name,
          envId: env.id,
          startedBy: p.kind === "user" ? p.userId : null,
        });
      },
      {
        body: startBody,
        detail: {
          summary: "Start watching an environment's package folders (environment admin or modeler; one environment at a time, 409 otherwise)",
          description: "Watches `WATCH_ROOT/<organizationName>/<environmentName>/` (`WATCH_ROOT` defaults to `DATA_DIR/watch`; the " +
            "folder is created when missing). Each sub-folder is a package (publisher.json, models, data, optional public/). " +
            "Before answering, every package folder whose content differs from its newest version is published. Then every " +
            "change emits `change` on the package's event stream and, after `WATCH_DEBOUNCE_MS` (200) of quiet, republishes the " +
            "package as the next patch version (0.1.0 first) through the publish code of the API: every model must compile; " +
            "when one does not, no version is created and `error` carries the problems. Hidden files and editor swap files are " +
            "ignored. `organizationName` may be left out when the caller sees only one environment of that name. Only one " +
            "environment is watched per node: starting another answers 409 (stop first); starting the watched one again is a " +
            "no-op. " + STATUS_DOC,
          tags,
        },
      },
    )
    .post(
      "/stop",
      async ({ principal }) => {
        const p = required(principal);
        const envId = watchedEnvironment(ctx);
        if (envId && !isSystemAdmin(p)) {
          const rank = await effectiveRank(ctx.sql, p, { kind: "environment", id: envId });
          if (rank < MODEL) throw forbidden("stopping watch mode needs the admin or modeler role on the watched environment");
        }
        const stopped = stopWatching(ctx);
        return isSystemAdmin(p) ? stopped : { ...stopped, root: "" };
      },
      {
        detail: {
          summary: "Stop watch mode (admin or modeler of the watched environment; a no-op when off); answers the status",
          tags,
        },
      },
    );
}
