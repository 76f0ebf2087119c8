/**
 * Runs of a package: create one for a version (full, or scoped by
 * `sources[]` / `dimensions[]`), list (most recent first), get with units,
 * and cancel (`?action=cancel`).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery, uuid } from "../http/params.ts";
import { security } from "../http/security.ts";
import { packageRules } from "../packages/route_rules.ts";
import { versionParams } from "../http/resource_params.ts";
import type { Principal } from "../access/principal.ts";
import { type BuiltView, builtViews } from "../rls/visibility.ts";
import { findRun, listRuns, requestCancel, runCursor, type RunRow, runUnits, unitsOfRuns, runView, type RunView, type StoredUnit, type UnitView } from "./store.ts";
import type { RunScope } from "./plan.ts";
import { abortLocalRun, enqueueRun } from "./worker.ts";
import { runFinished, runTargetOf } from "./progress.ts";

const runBody = t.Object({
  sources: t.Optional(t.Array(t.String({ maxLength: 256 }), { maxItems: 1000, error: "sources must be an array of source names" })),
  dimensions: t.Optional(t.Array(t.String({ maxLength: 512 }), { maxItems: 1000, error: "dimensions must be an array of source.dimension names" })),
}, { additionalProperties: false, error: "a run body is { sources?: string[], dimensions?: string[] }; send {} for a full run" });

const runParams = t.Object({
  org: name("organizationName"),
  env: name("environmentName"),
  pkg: name("packageName"),
  runId: uuid("runId"),
});

/** Shows what runs built as the caller may see it (`builtViews`, rls/visibility.ts). */
type Shown = (versionUuid: string, modelPath: string, source: string) => BuiltView;

/**
 * Whether the run's error is that of a unit built from a source the caller may
 * not read the data of (the unit recorded with the failure, never the error text).
 */
function withheldError(run: RunRow, shownAs: Shown): boolean {
  const unit = run.failedUnit;
  return unit !== null && shownAs(run.versionUuid, unit.modelPath, unit.sourceName) !== "full";
}

/**
 * The selectors of a scoped run as the caller may see them: each names a
 * unit (a persist source's table unit, a `source.dimension` index unit), and
 * one whose unit the caller may not see at all is left out, as the unit is.
 */
function scopeShown(run: RunRow, shownAs: Shown, units: readonly StoredUnit[]): RunScope | null {
  if (!run.scope) return null;
  const seen = (kind: StoredUnit["kind"], target: string) =>
    units.some((u) => u.kind === kind && u.target === target && shownAs(run.versionUuid, u.modelPath, u.sourceName) !== "hidden");
  return {
    sources: (run.scope.sources ?? []).filter((name) => seen("table", name)),
    dimensions: (run.scope.dimensions ?? []).filter((name) => seen("index", name)),
  };
}

/**
 * A run as the caller may see it: units built from a source it may not
 * query, and the selectors naming them, are left out (below modeler) or
 * shown without their counts and error text (which may quote rows); the
 * run's error, when it is such a unit's, says so. `units` are the run's;
 * `listUnits` shows them (one run) or not (a list).
 */
function runShown(run: RunRow, shownAs: Shown, units: readonly StoredUnit[], listUnits: boolean): RunView {
  const view = { ...runView(run), scope: scopeShown(run, shownAs, units) };
  if (withheldError(run, shownAs)) view.error = "the run failed: a unit built from a source you may not query failed (its error is not shown to you)";
  if (!listUnits) return view;
  const visible: UnitView[] = [];
  for (const { position: _p, sourceName, ...unit } of units) {
    const as = shownAs(run.versionUuid, unit.modelPath, sourceName);
    if (as === "hidden") continue;
    visible.push(as === "full" ? unit : { ...unit, rowCount: null, valueCount: null, distinctCount: null, error: unit.error === null ? null : "failed (not shown to you)" });
  }
  return { ...view, units: visible };
}

async function shownFor(ctx: AppContext, principal: Principal | null | undefined, pkg: { rank: number }, runs: RunRow[]): Promise<Shown> {
  return await builtViews(ctx.sql, required(principal ?? null), { versionUuids: runs.map((r) => r.versionUuid), rank: pkg.rank });
}

async function withUnits(ctx: AppContext, run: RunRow, shownAs: Shown): Promise<RunView> {
  return runShown(run, shownAs, await runUnits(ctx.sql, run.id), true);
}

function runPlugin(ctx: AppContext, prefix: string) {
  const tags = ["runs"];
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(packageRules(ctx))
    .post(
      "/:env/packages/:pkg/versions/:versionId/runs",
      async ({ version, pkg, principal, body, set, request }) => {
        const p = required(principal);
        const scoped = body !== undefined && body !== null && (body.sources !== undefined || body.dimensions !== undefined);
        const id = await enqueueRun(ctx, {
          packageId: pkg.id,
          versionUuid: version.uuid,
          scope: scoped ? { sources: body.sources ?? [], dimensions: body.dimensions ?? [] } : undefined,
          createdBy: p.kind === "user" ? p.userId : null,
        });
        set.status = 201;
        set.headers["location"] = `${new URL(request.url).pathname.replace(/\/versions\/[^/]+\/runs\/?$/, "")}/runs/${id}`;
        const run = (await findRun(ctx.sql, id))!;
        return await withUnits(ctx, run, await shownFor(ctx, principal, pkg, [run]));
      },
      {
        params: versionParams,
        versionAccess: "modeler",
        body: t.Optional(runBody),
        detail: {
          summary: "Start a run of a version: {} (or no body) rebuilds every #@ persist source and #(index) dimension; sources[] / dimensions[] (source.dimension) select some (admin or modeler)",
          tags,
        },
      },
    )
    .get(
      "/:env/packages/:pkg/runs",
      async ({ pkg, principal, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listRuns(ctx.sql, pkg.id, { limit, before: decodeCursor(query.cursor) });
        const page = pageResponse(request, rows, { limit, key: runCursor, set });
        const shownAs = await shownFor(ctx, principal, pkg, page);
        // the units of scoped runs decide which of their selectors are shown
        const units = await unitsOfRuns(ctx.sql, page.filter((run) => run.scope !== null).map((run) => run.id));
        return page.map((run) => runShown(run, shownAs, units.get(run.id) ?? [], false));
      },
      {
        params: t.Object({ org: name("organizationName"), env: name("environmentName"), pkg: name("packageName") }),
        pkgAccess: "viewer",
        query: pageQuery,
        detail: { summary: "List the runs of a package, most recent first (paged)", tags },
      },
    )
    .get(
      "/:env/packages/:pkg/runs/:runId",
      async ({ pkg, principal, params }) => {
        const run = await findRun(ctx.sql, params.runId, { packageId: pkg.id });
        if (!run) throw notFound(`run ${params.runId} of package '${params.pkg}' not found`);
        return await withUnits(ctx, run, await shownFor(ctx, principal, pkg, [run]));
      },
      { params: runParams, pkgAccess: "viewer", detail: { summary: "Get a run with its units (state, row or value count, timings, error)", tags } },
    )
    .post(
      "/:env/packages/:pkg/runs/:runId",
      async ({ pkg, principal, params, query, set }) => {
        const run = await findRun(ctx.sql, params.runId, { packageId: pkg.id });
        if (!run) throw notFound(`run ${params.runId} of package '${params.pkg}' not found`);
        if (query.action !== "cancel") {
          throw badRequest(`action '${query.action ?? ""}' is not known; the only action is ?action=cancel`);
        }
        const state = await requestCancel(ctx.sql, run.id);
        if (state === "running") {
          abortLocalRun(ctx, run.id);
          set.status = 202;
        } else {
          // cancelled before a worker claimed it: no worker reports its end
          const target = await runTargetOf(ctx.sql, run.id);
          if (target) await runFinished(ctx, target, run.versionUuid);
        }
        return await withUnits(ctx, (await findRun(ctx.sql, run.id))!, await shownFor(ctx, principal, pkg, [run]));
      },
      {
        params: runParams,
        pkgAccess: "modeler",
        query: t.Object({ action: t.Optional(t.String({ maxLength: 64 })) }),
        detail: {
          summary: "Act on a run: ?action=cancel (200 cancelled when queued; 202 when running, it stops at the next check; 409 once ended; admin or modeler)",
          tags,
        },
      },
    );
}

/** Routes of runs under both `/environments` and `/projects`. */
export function runRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => runPlugin(ctx, prefix));
}
