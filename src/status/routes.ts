/**
 * `GET /health` (no auth) and `GET /api/v0/status` (server status of the data family).
 * @module
 */
import { Elysia } from "elysia";
import type { AppContext } from "../http/context.ts";
import { required } from "../http/auth.ts";
import { principalKey } from "../http/access.ts";
import { security } from "../http/security.ts";
import { embedderStatus } from "../retrieval/embedder.ts";

/** Health and status routes. */
export function statusRoutes(ctx: AppContext) {
  return new Elysia()
    .get(
      "/health",
      async () => {
        await ctx.sql`SELECT 1 FROM schema_migrations LIMIT 1`;
        return { status: "ok" };
      },
      { detail: { summary: "Liveness: ok once the database is migrated", tags: ["data"], security: [] } },
    )
    .group("/api/v0", (api) =>
      api.use(security(ctx)).get(
        "/status",
        async ({ principal }) => {
          const p = principalKey(required(principal));
          const environments = await ctx.sql`
            SELECT o.name AS organization, e.name FROM environments e JOIN organizations o ON o.id = e.org_id
             WHERE effective_rank(${p.kind}, ${p.id}::uuid, 'environment', e.id) >= 1
             ORDER BY o.name, e.name`;
          const embeddings = embedderStatus();
          return {
            initialized: true,
            state: "ready",
            timestamp: new Date().toISOString(),
            startedAt: ctx.startedAt.toISOString(),
            database: ctx.dbKind,
            environments: environments.map((r) => ({ organizationName: r.organization, name: r.name })),
            embeddings: {
              ...embeddings,
              retrieval: embeddings.state === "unavailable" ? "lexical" : "semantic+lexical",
            },
          };
        },
        { detail: { summary: "Server status and health", tags: ["data"] } },
      ),
    );
}
