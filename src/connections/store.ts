/**
 * SQL of environment connections, and {@link environmentConnection}: the Malloy
 * connection of an environment by name, for compiling and querying packages.
 * @module
 */
import { ValidationError } from "../errors.ts";
import type { Connection } from "@malloydata/malloy";
import type { Db } from "../db/database.ts";
import { cachedMalloyConnection, type ConnectionSpec } from "./drivers.ts";
import { type ConnectionType, settingsField } from "./settings.ts";
import { type HostPolicy, HostRefusedError } from "./host_policy.ts";
import { hostPolicyOf } from "./policy.ts";
import { decryptSecret, encryptSecret, secretKey, type SecretKeyOptions } from "./secrets.ts";

/** A connection as the API shows it: never with secrets. */
export type ConnectionView = { name: string; type: ConnectionType; createdAt: string; updatedAt: string } & Record<string, unknown>;

/** A stored row (secret still encrypted). */
export interface ConnectionRow {
  id: string;
  envId: string;
  name: string;
  type: ConnectionType;
  config: Record<string, string | number>;
  secret: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A connection as {@link connectionColumns} reads it; `config` (jsonb) is text on drivers that do not parse it. */
interface ConnectionRecord extends Omit<ConnectionRow, "config"> {
  config: ConnectionRow["config"] | string;
}

/** The columns of {@link ConnectionRecord} (table `connections`). */
function connectionColumns(db: Db) {
  return db`id, env_id AS "envId", name, type, config, secret, created_at AS "createdAt", updated_at AS "updatedAt"`;
}

function toRow(r: ConnectionRecord): ConnectionRow {
  return {
    id: r.id,
    envId: r.envId,
    name: r.name,
    type: r.type,
    config: typeof r.config === "string" ? JSON.parse(r.config) : r.config,
    secret: r.secret,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The API shape: `{ name, type, <type>Connection: { public fields }, createdAt, updatedAt }`. */
export function connectionView(row: ConnectionRow, options: { secretFields?: string[] } = {}): ConnectionView {
  return {
    name: row.name,
    type: row.type,
    [settingsField(row.type)]: { ...row.config },
    // names (never values) of the write-only fields that are set
    secretFieldsSet: options.secretFields ?? [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One connection of an environment by name. */
export async function findConnection(db: Db, envId: string, name: string): Promise<ConnectionRow | null> {
  const [r] = await db<ConnectionRecord[]>`SELECT ${connectionColumns(db)} FROM connections WHERE env_id = ${envId} AND name = ${name}`;
  return r ? toRow(r) : null;
}

/** The connections of an environment by name, keyset-paged. */
export async function listConnections(db: Db, envId: string, page: { limit: number; after?: string }): Promise<ConnectionRow[]> {
  const rows = await db<ConnectionRecord[]>`SELECT ${connectionColumns(db)} FROM connections WHERE env_id = ${envId} AND name > ${page.after ?? ""}
                         ORDER BY name LIMIT ${page.limit + 1}`;
  return rows.map(toRow);
}

/** Decrypts a row's secret fields. */
export async function connectionSecrets(row: ConnectionRow, keys: SecretKeyOptions): Promise<Record<string, string>> {
  if (!row.secret) return {};
  return (await decryptSecret(await secretKey(keys), row.secret, { aad: row.id })) as Record<string, string>;
}

/** What to store for a connection. */
export interface ConnectionWrite {
  id: string;
  envId: string;
  name: string;
  type: ConnectionType;
  config: Record<string, string | number>;
  secret: Record<string, string>;
}

/** Inserts or replaces (same id) a connection, encrypting its secret fields. */
export async function saveConnection(db: Db, write: ConnectionWrite, keys: SecretKeyOptions): Promise<ConnectionRow> {
  const secret = Object.keys(write.secret).length > 0
    ? await encryptSecret(await secretKey(keys), write.secret, { aad: write.id })
    : null;
  const [r] = await db<ConnectionRecord[]>`
    INSERT INTO connections (id, env_id, name, type, config, secret)
    VALUES (${write.id}, ${write.envId}, ${write.name}, ${write.type}, ${db.json(write.config)}, ${secret})
    ON CONFLICT (id) DO UPDATE SET type = EXCLUDED.type, config = EXCLUDED.config, secret = EXCLUDED.secret,
      updated_at = clock_timestamp()
    RETURNING ${connectionColumns(db)}`;
  return toRow(r!);
}

/** Deletes a connection row (its encrypted credentials go with it). */
export async function deleteConnection(db: Db, id: string): Promise<void> {
  await db`DELETE FROM connections WHERE id = ${id}`;
}

/** A stored connection as a driver spec (secrets decrypted). */
async function connectionSpec(row: ConnectionRow, keys: SecretKeyOptions): Promise<ConnectionSpec> {
  return { id: row.id, envId: row.envId, name: row.name, type: row.type, config: row.config, secret: await connectionSecrets(row, keys) };
}

/** Options of {@link environmentConnection} and {@link connectionLookup}. */
export interface EnvironmentConnectionOptions extends SecretKeyOptions {
  /** Filled from `dataDir` when omitted. */
  driverDataDir?: string;
  /** Where connections may go; default: the policy of the service owning `db`, else public addresses only. */
  hostPolicy?: HostPolicy;
}

/**
 * The Malloy connection named `name` of an environment (cached per process,
 * rebuilt when the row changes), or `undefined` when there is none. Its host
 * is checked when the connection is opened (see `createMalloyConnection`).
 */
export async function environmentConnection(
  db: Db,
  where: { envId: string; name: string },
  options: EnvironmentConnectionOptions,
): Promise<Connection | undefined> {
  const row = await findConnection(db, where.envId, where.name);
  if (!row) return undefined;
  const spec = await connectionSpec(row, options);
  try {
    return await cachedMalloyConnection({ ...spec, version: row.updatedAt.toISOString() }, {
      dataDir: options.driverDataDir ?? options.dataDir,
      hostPolicy: options.hostPolicy ?? hostPolicyOf(db),
    });
  } catch (error) {
    if (!(error instanceof HostRefusedError)) throw error;
    // what the name resolved to stays out of the answer
    throw new ValidationError(
      `connection '${row.name}' goes to an address that is not allowed (loopback, private or reserved); ` +
        "an administrator can list it in ALLOWED_CONNECTION_HOSTS",
      { reason: "HOST_NOT_ALLOWED" },
    );
  }
}

/**
 * A `lookupConnection` for `createPackageRuntime` / `compilePackage`: the
 * environment's connections by name.
 */
export function connectionLookup(db: Db, envId: string, options: EnvironmentConnectionOptions): (name: string) => Promise<Connection | undefined> {
  return (name: string) => environmentConnection(db, { envId, name }, options);
}
