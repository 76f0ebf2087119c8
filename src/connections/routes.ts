/**
 * Environment connections: list, create (checked live), get (no credentials),
 * update (checked again), delete (credentials go with the row).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { environmentScoped } from "../http/aliases.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { environmentRules, readsConnectionErrors } from "../environments/route_rules.ts";
import { envParams } from "../http/resource_params.ts";
import { evictConnections, testConnection } from "./drivers.ts";
import { CONNECTION_TYPES, type ConnectionType, DESTINATION_FIELDS, settingsField, splitSettings } from "./settings.ts";
import {
  connectionSecrets,
  connectionView,
  type ConnectionRow,
  deleteConnection,
  findConnection,
  listConnections,
  saveConnection,
} from "./store.ts";
import { bindHostPolicy, connectionHostPolicy } from "./policy.ts";

const connParams = t.Object({ org: name("organizationName"), env: name("environmentName"), conn: name("connectionName") });
const typeSchema = t.Union(CONNECTION_TYPES.map((ty) => t.Literal(ty)), {
  error: `type must be one of ${CONNECTION_TYPES.join(", ")}`,
});
const settingsSchemas = Object.fromEntries(
  CONNECTION_TYPES.map((ty) => [settingsField(ty), t.Optional(t.Record(t.String(), t.Unknown()))]),
);
const createBody = t.Object({ name: name("name"), type: typeSchema, ...settingsSchemas });
const patchBody = t.Object({ type: t.Optional(typeSchema), ...settingsSchemas });

/** Options of the driver layer from the app's configuration. */
function keys(ctx: AppContext) {
  return { secretKey: ctx.config.secretKey, dataDir: ctx.config.dataDir };
}

async function view(ctx: AppContext, row: ConnectionRow) {
  const secret = await connectionSecrets(row, keys(ctx)).catch(() => ({}));
  return connectionView(row, { secretFields: Object.keys(secret).sort() });
}

function settingsOf(body: Record<string, unknown>, type: ConnectionType): Record<string, unknown> {
  for (const other of CONNECTION_TYPES) {
    if (other !== type && body[settingsField(other)] !== undefined) {
      throw badRequest(`a ${type} connection takes ${settingsField(type)}, not ${settingsField(other)}`);
    }
  }
  return (body[settingsField(type)] as Record<string, unknown> | undefined) ?? {};
}

/**
 * The settings a PATCH leads to. Same type: provided fields change (null
 * clears one), and when a destination field (host, port, database, user…)
 * changes, the stored secrets are dropped: only secrets sent in this request
 * go to the new destination. Another type: the body replaces everything.
 */
function patchedSettings(
  row: ConnectionRow,
  type: ConnectionType,
  changes: Record<string, unknown>,
  stored: Record<string, string>,
): Record<string, unknown> {
  if (type !== row.type) return { ...changes };
  // a destination field may itself be secret (postgres connectionString): compare with what is stored of either kind
  const current: Record<string, unknown> = { ...stored, ...row.config };
  const moved = DESTINATION_FIELDS[type].some((k) => k in changes && (changes[k] ?? undefined) !== current[k]);
  const merged: Record<string, unknown> = { ...row.config, ...(moved ? {} : stored), ...changes };
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  return merged;
}

function connectionPlugin(ctx: AppContext, prefix: string) {
  const tags = ["connections"];
  const policy = connectionHostPolicy(ctx.config);
  bindHostPolicy(ctx.sql, policy);
  const check = (spec: Parameters<typeof testConnection>[0], detailed: boolean) =>
    testConnection(spec, {
      dataDir: ctx.config.dataDir,
      timeoutMs: ctx.config.connectionTestTimeoutMs,
      hostPolicy: policy,
      detailed,
      log: (line) => ctx.log(line),
    });
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(environmentRules(ctx))
    .get(
      "/:env/connections",
      async ({ env, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listConnections(ctx.sql, env.id, { limit, after: decodeCursor(query.cursor) });
        const page = pageResponse(request, rows, { limit, key: (r) => r.name, set });
        return await Promise.all(page.map((row) => view(ctx, row)));
      },
      { params: envParams, envAccess: "viewer", query: pageQuery, detail: { summary: "List the connections of an environment (no credentials)", tags } },
    )
    .post(
      "/:env/connections",
      async ({ env, params, body, set }) => {
        if (body.name === "duckdb") {
          throw badRequest("connection name 'duckdb' is reserved for each package's own DuckDB; choose another name");
        }
        if (await findConnection(ctx.sql, env.id, body.name)) {
          throw conflict(`connection '${body.name}' already exists in environment '${params.env}'; update it or choose another name`);
        }
        const split = splitSettings(body.type, settingsOf(body, body.type));
        const id = crypto.randomUUID();
        const spec = { id, envId: env.id, name: body.name, type: body.type, ...split };
        await check(spec, readsConnectionErrors(env));
        const row = await saveConnection(ctx.sql, spec, keys(ctx)).catch((error) => {
          if ((error as { code?: string }).code === "23505") throw conflict(`connection '${body.name}' already exists in environment '${params.env}'`);
          throw error;
        });
        set.status = 201;
        return await view(ctx, row);
      },
      {
        params: envParams,
        envAccess: "modeler",
        body: createBody,
        detail: { summary: "Create a connection: checked by connecting and running SELECT 1; credentials stored encrypted", tags },
      },
    )
    .get(
      "/:env/connections/:conn",
      async ({ env, params }) => {
        const row = await findConnection(ctx.sql, env.id, params.conn);
        if (!row) throw notFound(`connection '${params.conn}' not found in environment '${params.env}'`);
        return await view(ctx, row);
      },
      { params: connParams, envAccess: "viewer", detail: { summary: "Get a connection (never with credentials)", tags } },
    )
    .patch(
      "/:env/connections/:conn",
      async ({ env, params, body }) => {
        const row = await findConnection(ctx.sql, env.id, params.conn);
        if (!row) throw notFound(`connection '${params.conn}' not found in environment '${params.env}'`);
        const type = body.type ?? row.type;
        const changes = settingsOf(body, type);
        const merged = patchedSettings(row, type, changes, await connectionSecrets(row, keys(ctx)));
        const split = splitSettings(type, merged);
        const spec = { id: row.id, envId: env.id, name: row.name, type, ...split };
        await check(spec, readsConnectionErrors(env));
        const saved = await saveConnection(ctx.sql, spec, keys(ctx));
        await evictConnections([row.id]);
        return await view(ctx, saved);
      },
      {
        params: connParams,
        envAccess: "modeler",
        body: patchBody,
        detail: { summary: "Update a connection (provided fields change; checked again before it is saved)", tags },
      },
    )
    .delete(
      "/:env/connections/:conn",
      async ({ env, params, set }) => {
        const row = await findConnection(ctx.sql, env.id, params.conn);
        if (!row) throw notFound(`connection '${params.conn}' not found in environment '${params.env}'`);
        await deleteConnection(ctx.sql, row.id);
        await evictConnections([row.id]);
        set.status = 204;
      },
      { params: connParams, envAccess: "modeler", detail: { summary: "Delete a connection and its credentials (irreversible)", tags } },
    );
}

/** Routes of connections under both `/environments` and `/projects`. */
export function connectionRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => connectionPlugin(ctx, prefix));
}
