/**
 * Watch-mode routes of the data family: `GET /watch-mode/status`,
 * `POST /watch-mode/start` `{ organizationName?, environmentName }` and
 * `POST /watch-mode/stop`. Each organization has its own slot; status and
 * stop take `?organizationName=` (optional when the caller sees one watch).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { name } from "../http/params.ts";
import { watchRules } from "./route_rules.ts";
import { security } from "../http/security.ts";
import { statusErrorsAsSeen, visibleStatus } from "./access.ts";
import { startWatching, stopWatching, watchStatus } from "./watcher.ts";

const orgQuery = t.Object({ organizationName: t.Optional(name("organizationName")) });

const startBody = t.Object({
  organizationName: t.Optional(name("organizationName")),
  environmentName: name("environmentName"),
});

const STATUS_DOC = "`{ enabled, organizationName, environmentName, root, startedAt, debounceMs, packages: [{ name, state " +
  "(idle|pending|publishing|error), lastVersionId, lastError, lastChangeAt, subscribers }] }`. Names and packages " +
  "are shown only to callers who can read the watched environment, the folder (`root`) only to the system administrator; " +
  "a package's `lastError` quotes its models' field names, so when its newest version has sources restricted by #(authorize) " +
  "or #(bind), callers below package modeler read a note instead. " +
  "Watch mode is per node and per organization: `?organizationName=` picks the organization (optional when the caller can read exactly one watch).";

/** Routes of watch mode. */
export function watchRoutes(ctx: AppContext) {
  const tags = ["data"];
  return new Elysia({ prefix: "/watch-mode" })
    .use(security(ctx))
    .use(watchRules(ctx))
    .get("/status", ({ watch, principal }) => statusErrorsAsSeen(ctx, required(principal), visibleStatus(watchStatus(ctx, watch.orgId), watch), watch), {
      query: orgQuery,
      watchAccess: "reader",
      detail: { summary: "Watch-mode status of an organization on this node", description: STATUS_DOC, tags },
    })
    .post(
      "/start",
      async ({ principal, watchStart: { env, orgName } }) => {
        return await startWatching(ctx, {
          orgId: env.orgId,
          orgName,
          envName: env.name,
          envId: env.id,
          startedBy: principal?.kind === "user" ? principal.userId : null,
        });
      },
      {
        body: startBody,
        watchStartAccess: "environment-modeler",
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
      ({ watch, principal }) => statusErrorsAsSeen(ctx, required(principal), visibleStatus(watch.orgId ? stopWatching(ctx, watch.orgId) : watchStatus(ctx, null), watch), watch),
      {
        query: orgQuery,
        watchAccess: "modeler",
        detail: {
          summary: "Stop an organization's watch mode (admin or modeler of the watched environment; a no-op when off); answers the status",
          tags,
        },
      },
    );
}
