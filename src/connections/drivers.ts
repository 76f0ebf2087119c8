/**
 * How a stored connection becomes a Malloy `Connection` through its
 * `@malloydata/db-*` driver (behind the statement guards and the host policy),
 * and the live check run on create and update. Malloy connections are cached
 * per process by row id and version. The settings of each type are in
 * ./settings.ts.
 * @module
 */
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Connection } from "@malloydata/malloy";
import { parse as parsePgUrl } from "pg-connection-string";
import { engineLimits } from "../engine/duckdb/limits.ts";
import { guardBigQuery } from "../engine/guards/bigquery_guard.ts";
import { guardMysql } from "../engine/guards/mysql_guard.ts";
import { guardSnowflake } from "../engine/guards/snowflake_guard.ts";
import { guardTrino } from "../engine/guards/trino_guard.ts";
import { ValidationError } from "../errors.ts";
import { checkedAddress, type HostPolicy, hostPolicy } from "./host_policy.ts";
import type { ConnectionType } from "./settings.ts";

/** A stored connection, decrypted, as {@link createMalloyConnection} needs it. */
export interface ConnectionSpec {
  id: string;
  envId: string;
  name: string;
  type: ConnectionType;
  config: Record<string, string | number>;
  secret: Record<string, string>;
}

/** Options of {@link createMalloyConnection}. */
export interface DriverOptions {
  /** Folder of environment DuckDB database files. */
  dataDir: string;
  /** Where connections may go (`ALLOWED_CONNECTION_HOSTS`); default: public addresses only. */
  hostPolicy?: HostPolicy;
}

const PUBLIC_ONLY = hostPolicy([]);

/** A postgres connection's destination: `connectionString` read with pg's own parser, then the fields. */
function postgresTarget(c: Record<string, string | number>, s: Record<string, string>) {
  const parsed = s.connectionString ? parsePgUrl(s.connectionString) : undefined;
  const ssl = parsed?.ssl;
  return {
    // pg's default host is localhost: refused like any loopback name unless allowed
    host: String(c.host ?? parsed?.host ?? "localhost"),
    port: c.port !== undefined ? Number(c.port) : parsed?.port ? Number(parsed.port) : 5432,
    databaseName: c.databaseName !== undefined ? String(c.databaseName) : parsed?.database ?? undefined,
    username: c.userName !== undefined ? String(c.userName) : parsed?.user,
    password: s.password ?? parsed?.password,
    ssl: ssl ? { rejectUnauthorized: typeof ssl === "object" ? ssl.rejectUnauthorized !== false : true } : undefined,
  };
}

/** The address a host name or literal resolves to, checked against the policy (see {@link checkedAddress}). */
function destination(host: string, options: DriverOptions): Promise<string> {
  return checkedAddress(host, options.hostPolicy ?? PUBLIC_ONLY);
}

/**
 * Builds the Malloy connection of a stored connection with its driver. The
 * host of a postgres, mysql or trino connection is resolved and checked first
 * ({@link checkedAddress}), and the driver connects to that address, not to
 * the name (TLS still verifies the name: it goes as `servername`). A refused
 * host throws `HostRefusedError`.
 */
export async function createMalloyConnection(spec: ConnectionSpec, options: DriverOptions): Promise<Connection> {
  const c = spec.config;
  const s = spec.secret;
  const str = (v: unknown) => (v === undefined ? undefined : String(v));
  switch (spec.type) {
    case "postgres": {
      const { PostgresConnection } = await import("@malloydata/db-postgres");
      const target = postgresTarget(c, s);
      const address = await destination(target.host, options);
      return new PostgresConnection({
        name: spec.name,
        ...target,
        host: address,
        ssl: target.ssl ? { ...target.ssl, servername: target.host } : undefined,
      });
    }
    case "mysql": {
      const { MySQLConnection } = await import("@malloydata/db-mysql");
      // read-only session, one statement at a time, no FILE privilege: also for the connection check
      return guardMysql(new MySQLConnection(spec.name, {
        host: await destination(String(c.host), options),
        port: c.port as number | undefined,
        database: str(c.databaseName),
        user: str(c.userName),
        password: s.password,
      }), { statementTimeoutMs: () => engineLimits().statementTimeoutMs });
    }
    case "bigquery": {
      const { BigQueryConnection } = await import("@malloydata/db-bigquery");
      // every query is dry-run first and runs only as one SELECT: also for the connection check
      return guardBigQuery(new BigQueryConnection({
        name: spec.name,
        projectId: str(c.defaultProjectId),
        billingProjectId: str(c.billingProjectId),
        location: str(c.location),
        maximumBytesBilled: str(c.maximumBytesBilled),
        timeoutMs: str(c.queryTimeoutMilliseconds),
        serviceAccountKeyJson: s.serviceAccountKeyJson,
      }));
    }
    case "snowflake": {
      const { SnowflakeConnection } = await import("@malloydata/db-snowflake");
      // every statement carries MULTI_STATEMENT_COUNT=1: Snowflake refuses a second statement in a text
      return guardSnowflake(new SnowflakeConnection(spec.name, {
        connOptions: {
          account: String(c.account),
          username: str(c.userName),
          password: s.password,
          privateKey: s.privateKey,
          privateKeyPass: s.privateKeyPass,
          authenticator: s.privateKey ? "SNOWFLAKE_JWT" : undefined,
          warehouse: str(c.warehouse),
          database: str(c.database),
          schema: str(c.schema),
          role: str(c.role),
        },
      }));
    }
    case "trino": {
      const { TrinoConnection } = await import("@malloydata/db-trino");
      const server = new URL(String(c.server));
      const address = await destination(server.hostname, options);
      // plain http goes to the checked address; https keeps the name (its certificate names it)
      if (server.protocol === "http:") server.hostname = address.includes(":") ? `[${address}]` : address;
      // no state between requests, queries only, columns of sql() without PREPARE
      return guardTrino(new TrinoConnection(spec.name, undefined, {
        server: server.toString().replace(/\/$/, ""),
        port: c.port as number | undefined,
        catalog: str(c.catalog),
        schema: str(c.schema),
        user: str(c.userName),
        password: s.password,
      }));
    }
    case "motherduck": {
      const { DuckDBConnection } = await import("@malloydata/db-duckdb");
      return new DuckDBConnection({ name: spec.name, databasePath: `md:${c.database}`, motherDuckToken: s.accessToken });
    }
    case "duckdb": {
      const { DuckDBConnection } = await import("@malloydata/db-duckdb");
      const dir = resolve(join(options.dataDir, "duckdb", spec.envId));
      await mkdir(dir, { recursive: true });
      const file = c.databaseName === undefined ? ":memory:" : join(dir, `${c.databaseName}.duckdb`);
      return new DuckDBConnection({
        name: spec.name,
        databasePath: file,
        workingDirectory: dir,
        securityPolicy: "sandboxed",
        allowedDirectories: [dir],
        tempDirectory: dir,
      });
    }
  }
}

/** Closes a Malloy connection, ignoring errors (best effort). */
async function closeQuietly(connection: Connection | undefined): Promise<void> {
  try {
    await (connection as { close?: () => Promise<void> } | undefined)?.close?.();
  } catch {
    // closing a broken connection may fail; nothing to do
  }
}

function redact(message: string, secrets: Record<string, string>): string {
  let out = message;
  for (const value of Object.values(secrets)) if (value.length >= 3) out = out.split(value).join("***");
  return out.replace(/\s+/g, " ").trim().slice(0, 500);
}

/** Options of {@link testConnection}. */
export interface TestOptions extends DriverOptions {
  timeoutMs: number;
  /** Whether the caller may see the driver's reason (administrators); others get `connection failed`. */
  detailed: boolean;
  /** Where the reason always goes (the server log). */
  log?: (line: Record<string, unknown>) => void;
}

/**
 * Connects (to the checked address) and runs `SELECT 1` within `timeoutMs`.
 * On failure: the reason (secrets redacted) goes to the log, and the caller
 * gets 400 with it when `detailed`, else a plain `connection failed` that
 * tells neither a refused host, a closed port nor a wrong password apart.
 * Closes the connection.
 */
export async function testConnection(spec: ConnectionSpec, options: TestOptions): Promise<void> {
  let connection: Connection | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    connection = await createMalloyConnection(spec, options);
    const probe = connection.runSQL("SELECT 1 AS ok", { rowLimit: 1 });
    probe.catch(() => {});
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    });
    await Promise.race([probe, timeout]);
  } catch (error) {
    const reason = redact(error instanceof Error ? error.message || error.name : String(error), spec.secret);
    options.log?.({ level: "warn", event: "connection_check_failed", connection: spec.name, envId: spec.envId, type: spec.type, reason });
    if (!options.detailed) {
      throw new ValidationError(`connection failed: connection '${spec.name}' did not pass its check; an administrator can read the reason in the server log`);
    }
    throw new ValidationError(`connection '${spec.name}' (${spec.type}) failed its check: ${reason}; fix the settings and try again`);
  } finally {
    clearTimeout(timer);
    void closeQuietly(connection);
  }
}

const cache = new Map<string, { key: string; connection: Promise<Connection> }>();

/**
 * The cached Malloy connection of a stored connection; `version` (its
 * `updated_at`) changes on every update, which replaces the cached one.
 */
export function cachedMalloyConnection(spec: ConnectionSpec & { version: string }, options: DriverOptions): Promise<Connection> {
  const slot = cache.get(spec.id);
  if (slot && slot.key === spec.version) return slot.connection;
  if (slot) void slot.connection.then(closeQuietly, () => {});
  const connection = createMalloyConnection(spec, options);
  connection.catch(() => cache.delete(spec.id));
  cache.set(spec.id, { key: spec.version, connection });
  return connection;
}

/** Drops (and closes) cached connections, by row id; all of them without ids. */
export async function evictConnections(ids?: string[]): Promise<void> {
  const keys = ids ?? [...cache.keys()];
  await Promise.all(keys.map(async (id) => {
    const slot = cache.get(id);
    cache.delete(id);
    if (slot) await slot.connection.then(closeQuietly, () => {});
  }));
}
