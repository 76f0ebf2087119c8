/**
 * The REST query route (data family):
 * `POST E/packages/{pkg}/models/{modelPath}/query` with
 * `{ query?, queryName?, sourceName?, versionId? }` answering
 * `{ data, totalRows, executionTime, metadata }`; served under both
 * `/environments` and `/projects`.
 * @module
 */
import { appTokenOf } from "../apps/scope.ts";
import { Elysia, t } from "elysia";
import { QueryError } from "../engine/mod.ts";
import type { AppContext } from "../context.ts";
import { requestMeta } from "../http/request_meta.ts";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { ApiError, badRequest, notFound } from "../http/errors.ts";
import { routeAccess } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { pkgParams } from "../http/resource_params.ts";
import { createQueryRunner } from "./service.ts";

const text = (label: string) => t.Optional(t.String({ maxLength: 1_000_000, error: `${label} must be a string` }));

const queryBody = t.Object({
  query: text("query"),
  queryName: text("queryName"),
  sourceName: text("sourceName"),
  versionId: text("versionId"),
  limit: t.Optional(t.Integer({ minimum: 1, error: "limit must be a positive integer (rows to return, at most QUERY_ROW_LIMIT)" })),
  dryRun: t.Optional(t.Boolean({ error: "dryRun must be true or false" })),
  givens: t.Optional(t.Record(t.String(), t.Any(), { description: "values of the model's givens ($NAME) by name; a given named like an attribute of the organization is filled from the caller's attribute and cannot be set here (400)" })),
  malloyResult: t.Optional(t.Boolean({ error: "malloyResult must be true or false" })),
}, { additionalProperties: true });

const SNAKE = { query_name: "queryName", source_name: "sourceName", version_id: "versionId", dry_run: "dryRun", malloy_result: "malloyResult" } as const;

/**
 * How a REST query arrived: `app` from an in-package app (its app token, a sandboxed page,
 * whose requests carry `Origin: null`, or a page served under the package's
 * `/app/` path), `rest` otherwise.
 */
function viaOf(request: Request): "rest" | "app" {
  if (appTokenOf(request) !== null || request.headers.get("origin") === "null") return "app";
  const referer = request.headers.get("referer");
  try {
    if (referer && new URL(referer).pathname.includes("/app/")) return "app";
  } catch {
    // not a URL: not an app
  }
  return "rest";
}

/** The `400 VALIDATION_ERROR` of a failed query: message, `kind` and `problems` (file, line, column, message). */
function queryErrorResponse(error: QueryError): ApiError {
  if (error.kind === "not_allowed") return new ApiError("QUERY_NOT_ALLOWED", error.message, { details: { kind: error.kind, problems: error.problems } });
  return new ApiError("VALIDATION_ERROR", error.message, { details: { kind: error.kind, problems: error.problems } });
}

function queryPlugin(ctx: AppContext, prefix: string) {
  const runner = createQueryRunner(ctx);
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .post(
      "/:env/packages/:pkg/models/*",
      async ({ params, principal, body, request }) => {
        const { "*": raw, ...names } = params as typeof params & { "*": string };
        if (!raw.endsWith("/query")) throw notFound(`no route for POST ${new URL(request.url).pathname}; queries are POST .../models/{modelPath}/query`);
        const p = required(principal);
        const fields = (body ?? {}) as Record<string, unknown>;
        for (const [snake, camel] of Object.entries(SNAKE)) {
          if (fields[snake] !== undefined) throw badRequest(`body field '${snake}' is spelled ${camel} in the REST API`);
        }
        try {
          return await runner.run(p, {
            organization: names.org,
            environment_name: names.env,
            package_name: names.pkg,
            model_uri: raw.slice(0, -"/query".length),
            query: fields.query as string | undefined,
            query_name: fields.queryName as string | undefined,
            source_name: fields.sourceName as string | undefined,
            version_id: fields.versionId as string | undefined,
            limit: fields.limit as number | undefined,
            dry_run: fields.dryRun as boolean | undefined,
            givens: fields.givens as Record<string, unknown> | undefined,
            malloy_result: fields.malloyResult as boolean | undefined,
          }, { style: "camel", signal: request.signal, via: viaOf(request), since: requestMeta(request)?.start });
        } catch (error) {
          if (error instanceof QueryError) throw queryErrorResponse(error);
          throw error;
        }
      },
      {
        // the wildcard is checked by checkModelPath (a "*" key in the schema breaks Elysia's mirror)
        params: t.Object({ ...pkgParams.properties }, { additionalProperties: true }),
        body: queryBody,
        // the query runner (shared with MCP and apps) loads the package: 404 unless the caller can read it
        access: "custom:package-viewer-by-query-runner",
        detail: {
          summary: "Run a query against a model: `query` (Malloy text) or `queryName` + `sourceName` (a view or named query), optional `versionId` (latest unarchived by default), `limit` (rows, at most QUERY_ROW_LIMIT) `dryRun` (compile and authorize only: { sql, schema, sources }) and `malloyResult` (also answer `malloyResult`: Malloy's own result, schema with the query's rendering tags and data as cells, for `@malloydata/render`); answers { data, totalRows, executionTime, metadata }. The path is .../models/{modelPath}/query",
          tags: ["query"],
        },
      },
    );
}

/** The query route under both `/environments` and `/projects`. */
export function queryRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => queryPlugin(ctx, prefix));
}
