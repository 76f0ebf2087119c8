/**
 * `GET /health` (no auth) and `GET /api/v0/status` (server status of the data family).
 * @module
 */
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { readableEnvironments } from "../environments/store.ts";
import { security } from "../http/security.ts";
import { publicAccess, routeAccess } from "../http/route_access.ts";
import { embedderStatus, getEmbedder } from "../retrieval/embedding/embedder.ts";
import { DATABASE_RETRY_AFTER_S } from "../http/error_handler.ts";
import { malloyWarming } from "../engine/mod.ts";

/** How long a readiness probe waits for the platform database. */
const READY_TIMEOUT_MS = 2000;

/** Whether the platform database answers a trivial query within {@link READY_TIMEOUT_MS}. */
async function databaseReady(ctx: AppContext): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  const probe = ctx.sql`SELECT 1 FROM schema_migrations LIMIT 1`.then(() => true, () => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long the status waits for an embedding model nobody asked for yet (it is loaded on first use). */
const EMBEDDER_WAIT_MS = 2000;

/** The embedder's state, loading it first (for at most {@link EMBEDDER_WAIT_MS}) when nothing used it yet. */
async function embeddingsStatus() {
  if (embedderStatus().state === "not_loaded") {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, EMBEDDER_WAIT_MS);
    });
    await Promise.race([getEmbedder().then(() => {}), waited]);
    clearTimeout(timer);
  }
  const embeddings = embedderStatus();
  return { ...embeddings, retrieval: embeddings.state === "unavailable" ? "lexical" : "semantic+lexical" };
}

/** Health and status routes. */
export function statusRoutes(ctx: AppContext) {
  return new Elysia()
    .use(publicAccess)
    .get(
      "/health",
      () => ({ status: "ok" }),
      {
        access: "public",
        detail: {
          summary: "Liveness: 200 while the process runs (the service starts listening once the database is migrated)",
          description: "Does not touch the platform database; see GET /health/ready for readiness.",
          tags: ["data"],
          security: [],
        },
      },
    )
    .get(
      "/health/ready",
      async ({ set }) => {
        if (await databaseReady(ctx)) {
          if (!malloyWarming()) return { status: "ok", database: "ok" };
          // started with warm-ups in the background (main.ts): ready once they end
          set.status = 503;
          set.headers["retry-after"] = "1";
          return { status: "starting", database: "ok" };
        }
        set.status = 503;
        set.headers["retry-after"] = String(DATABASE_RETRY_AFTER_S);
        return { status: "unavailable", database: "unreachable" };
      },
      {
        access: "public",
        detail: {
          summary: "Readiness: 200 when the platform database answers within 2 s and start-up warm-ups have ended, 503 with Retry-After otherwise",
          tags: ["data"],
          security: [],
          responses: {
            200: { description: "ready: `{ status: \"ok\", database: \"ok\" }`" },
            503: { description: "the platform database is unreachable: `{ status: \"unavailable\", database: \"unreachable\" }`, with Retry-After; or the node is still warming up after its start: `{ status: \"starting\", database: \"ok\" }`, with Retry-After: 1" },
          },
        },
      },
    )
    .use(new Elysia({ prefix: "/api/v0" }).use(security(ctx)).use(routeAccess(ctx)).get(
        "/status",
        async ({ principal }) => {
          const environments = await readableEnvironments(ctx.sql, required(principal));
          return {
            initialized: true,
            state: "ready",
            timestamp: new Date().toISOString(),
            startedAt: ctx.startedAt.toISOString(),
            database: ctx.dbKind,
            environments: environments.map((r) => ({ organizationName: r.organizationName, name: r.name })),
            embeddings: await embeddingsStatus(),
          };
        },
        { access: "authenticated", detail: { summary: "Server status and health", tags: ["data"] } },
      ),
    );
}
