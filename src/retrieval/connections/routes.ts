/**
 * `POST /api/v0/retrieval/connection-entities`: search (or, with
 * `skip_matching: true`, enumerate) the tables and columns of an
 * environment's connections and of its packages' data files, grouped by
 * table, each with modeling suggestions.
 *
 * Access: environment viewer or better (404 otherwise, like every resource
 * the caller cannot see). Results are paged by `limit` (default 50, max 500)
 * and `cursor` (the `next_cursor` of the previous page).
 * @module
 */
import { Elysia, t } from "elysia";
import { required } from "../../http/auth.ts";
import type { AppContext } from "../../context.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { routeAccess } from "../../http/route_access.ts";
import { readsConnectionErrors } from "../../environments/route_rules.ts";
import { security } from "../../http/security.ts";
import { environmentFor } from "../../environments/lookup.ts";
import { findConnection } from "../../connections/store.ts";
import { visiblePackage } from "../../packages/lookup.ts";
import { enumerateEntities } from "./connection_entities.ts";
import { matchTables, unmatchedTables } from "./connection_entities_match.ts";
import { getEmbedder } from "../embedding/embedder.ts";
import { EmbeddingServiceError } from "../embedding/remote_embedder.ts";

const NAME = "^[a-zA-Z0-9_-]+$";

const body = t.Object({
  organization: t.String({ pattern: NAME, error: "organization is required: the organization's name" }),
  environment_name: t.String({ pattern: NAME, error: "environment_name is required: the environment whose connections are listed" }),
  connection_name: t.Optional(t.String({ pattern: NAME, error: "connection_name must be a connection's name ('duckdb' for package files)" })),
  package_name: t.Optional(t.String({ pattern: NAME, error: "package_name must be a package's name" })),
  search_text: t.Optional(t.String({ maxLength: 500, error: "search_text must be at most 500 characters" })),
  skip_matching: t.Optional(t.Boolean({ error: "skip_matching must be true or false" })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, error: "limit must be an integer from 1 to 500" })),
  cursor: t.Optional(t.String({ pattern: "^[0-9]{1,6}$", error: "cursor must be the next_cursor of the previous page" })),
});

/** Routes of connection-entity retrieval. */
export function connectionEntityRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/retrieval" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .post(
      "/connection-entities",
      async ({ body, principal }) => {
        const p = required(principal);
        const env = await environmentFor(ctx, p, { org: body.organization, env: body.environment_name });
        const text = body.search_text?.trim() ?? "";
        const enumerate = body.skip_matching === true;
        if (!enumerate && text === "") {
          throw badRequest("search_text is required unless skip_matching is true (which lists every table)");
        }
        if (body.connection_name && body.connection_name !== "duckdb" && !(await findConnection(ctx.sql, env.id, body.connection_name))) {
          throw notFound(`connection '${body.connection_name}' not found in environment '${env.name}'`);
        }
        if (body.package_name) await visiblePackage(ctx.sql, p, { env, name: body.package_name });
        const found = await enumerateEntities(ctx, p, {
          envId: env.id, connectionName: body.connection_name, packageName: body.package_name, connectionReasons: readsConnectionErrors(env),
        });
        found.tables.sort((a, b) => a.connection.localeCompare(b.connection) || (a.package_name ?? "").localeCompare(b.package_name ?? "") || a.table.localeCompare(b.table));
        const tables = enumerate ? unmatchedTables(found.tables) : await matchTables(found.tables, { searchText: text, embedder: await getEmbedder() })
          // an embeddings server (EMBEDDING_BASE_URL) failing now: match names lexically, as without a model
          .catch((error: unknown) => {
            if (error instanceof EmbeddingServiceError) return matchTables(found.tables, { searchText: text, embedder: null });
            throw error;
          });
        const limit = body.limit ?? 50;
        const offset = Number(body.cursor ?? 0);
        const page = tables.slice(offset, offset + limit);
        return {
          mode: enumerate ? "enumerate" : "search",
          search_text: enumerate ? null : text,
          total: tables.length,
          tables: page,
          next_cursor: offset + limit < tables.length ? String(offset + limit) : null,
          skipped: found.skipped,
          errors: found.errors,
        };
      },
      {
        body,
        // a viewer of the environment named in the body (environmentFor; 404 when the caller cannot see it)
        access: "custom:environment-viewer",
        detail: {
          summary: "Search or enumerate connection entities (tables, columns, modeling suggestions), grouped by table",
          description: "Lists the tables of the environment's postgres and duckdb connections and the data files (connection 'duckdb') " +
            "of its packages' latest versions. With skip_matching: true every table is listed (paged by limit/cursor); otherwise " +
            "search_text is matched to table and column names (lexical and embedding similarity).",
          tags: ["retrieval"],
        },
      },
    );
}
