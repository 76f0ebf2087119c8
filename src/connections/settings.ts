/**
 * The connection types and their settings: which fields each takes (public or
 * write-only secret, required or not), the fields that name where it connects,
 * and the checks of a settings object before it is stored.
 * @module
 */
import { ValidationError } from "../errors.ts";

/** The connection types of the API. */
export const CONNECTION_TYPES = ["duckdb", "postgres", "mysql", "bigquery", "snowflake", "trino", "motherduck"] as const;
/** A connection type. */
export type ConnectionType = typeof CONNECTION_TYPES[number];

interface FieldSpec {
  type: "string" | "integer";
  secret?: boolean;
  required?: boolean;
}

/**
 * Fields that say where a connection goes: changing one drops the stored
 * secrets (they were given for the old destination) unless new ones come
 * in the same request. A postgres `connectionString` names a host, port,
 * database and user as well (it is itself a secret field).
 */
export const DESTINATION_FIELDS: Record<ConnectionType, readonly string[]> = {
  duckdb: [],
  postgres: ["host", "port", "databaseName", "userName", "connectionString"],
  mysql: ["host", "port", "databaseName", "userName"],
  bigquery: ["defaultProjectId", "billingProjectId"],
  snowflake: ["account", "userName", "database", "warehouse", "role"],
  trino: ["server", "port", "userName", "catalog"],
  motherduck: ["database"],
};

/** Fields of each `<type>Connection` object. */
const FIELDS: Record<ConnectionType, Record<string, FieldSpec>> = {
  duckdb: { databaseName: { type: "string" } },
  postgres: {
    host: { type: "string" },
    port: { type: "integer" },
    databaseName: { type: "string" },
    userName: { type: "string" },
    password: { type: "string", secret: true },
    connectionString: { type: "string", secret: true },
  },
  mysql: {
    host: { type: "string", required: true },
    port: { type: "integer" },
    databaseName: { type: "string" },
    userName: { type: "string", required: true },
    password: { type: "string", secret: true },
  },
  bigquery: {
    defaultProjectId: { type: "string", required: true },
    billingProjectId: { type: "string" },
    location: { type: "string" },
    maximumBytesBilled: { type: "string" },
    queryTimeoutMilliseconds: { type: "string" },
    serviceAccountKeyJson: { type: "string", secret: true, required: true },
  },
  snowflake: {
    account: { type: "string", required: true },
    warehouse: { type: "string" },
    database: { type: "string" },
    schema: { type: "string" },
    role: { type: "string" },
    userName: { type: "string", required: true },
    password: { type: "string", secret: true },
    privateKey: { type: "string", secret: true },
    privateKeyPass: { type: "string", secret: true },
  },
  trino: {
    server: { type: "string", required: true },
    port: { type: "integer" },
    catalog: { type: "string" },
    schema: { type: "string" },
    userName: { type: "string", required: true },
    password: { type: "string", secret: true },
  },
  motherduck: {
    database: { type: "string", required: true },
    accessToken: { type: "string", secret: true, required: true },
  },
};

/** Name of the body field holding a type's settings, e.g. `postgresConnection`. */
export function settingsField(type: ConnectionType): string {
  return `${type}Connection`;
}

/** A connection's settings split into what may be shown and what is write-only. */
export interface SplitSettings {
  config: Record<string, string | number>;
  secret: Record<string, string>;
}

/**
 * Checks a type's settings object (unknown fields, types, required fields,
 * type-specific rules) and splits it into public and secret fields. 400 on
 * the first problem.
 */
export function splitSettings(type: ConnectionType, settings: Record<string, unknown>): SplitSettings {
  const spec = FIELDS[type];
  const field = settingsField(type);
  const out: SplitSettings = { config: {}, secret: {} };
  for (const [key, value] of Object.entries(settings)) {
    const f = spec[key];
    if (!f) throw new ValidationError(`${field}.${key} is not a setting of a ${type} connection; known: ${Object.keys(spec).join(", ")}`);
    if (value === null || value === undefined || value === "") continue;
    if (f.type === "integer" && !(Number.isInteger(value) && (value as number) > 0 && (value as number) < 65536)) {
      throw new ValidationError(`${field}.${key} must be an integer from 1 to 65535`);
    }
    if (f.type === "string" && typeof value !== "string") throw new ValidationError(`${field}.${key} must be a string`);
    if (f.secret) out.secret[key] = value as string;
    else out.config[key] = value as string | number;
  }
  const all = { ...out.config, ...out.secret };
  const missing = Object.entries(spec).filter(([k, f]) => f.required && all[k] === undefined).map(([k]) => `${field}.${k}`);
  if (missing.length > 0) throw new ValidationError(`a ${type} connection needs ${missing.join(", ")}; add ${missing.length > 1 ? "them" : "it"} and try again`);
  checkTypeRules(type, all, field);
  return out;
}

function checkTypeRules(type: ConnectionType, all: Record<string, string | number>, field: string): void {
  if (type === "postgres" && all.connectionString === undefined && all.host === undefined) {
    throw new ValidationError(`a postgres connection needs ${field}.host (or ${field}.connectionString)`);
  }
  if (type === "postgres" && all.connectionString !== undefined) checkConnectionString(String(all.connectionString), field);
  if (type === "snowflake" && all.password === undefined && all.privateKey === undefined) {
    throw new ValidationError(`a snowflake connection needs ${field}.password or ${field}.privateKey`);
  }
  if (type === "duckdb" && all.databaseName !== undefined && !/^[a-zA-Z0-9_-]{1,64}$/.test(String(all.databaseName))) {
    throw new ValidationError(`${field}.databaseName must be 1-64 letters, digits, '_' or '-' (a database file kept by the service), or omitted for in-memory`);
  }
  if (type === "trino" && !/^https?:\/\/[^\s]+$/.test(String(all.server))) {
    throw new ValidationError(`${field}.server must be an http(s) URL, e.g. https://trino.example.com`);
  }
  if (type === "bigquery") {
    let key: unknown;
    try {
      key = JSON.parse(String(all.serviceAccountKeyJson));
    } catch {
      throw new ValidationError(`${field}.serviceAccountKeyJson is not valid JSON; paste the whole key file of the service account`);
    }
    const k = key as Record<string, unknown> | null;
    if (!k || typeof k !== "object" || typeof k.client_email !== "string" || typeof k.private_key !== "string") {
      throw new ValidationError(`${field}.serviceAccountKeyJson must be a service-account key file with client_email and private_key`);
    }
  }
}

/** Connection-string parameters that name files on this server or a socket: refused. */
const FILE_PARAMS = ["sslcert", "sslkey", "sslrootcert", "sslcrl", "passfile", "service", "servicefile", "hostaddr"];

function checkConnectionString(value: string, field: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError(`${field}.connectionString must be a URL such as postgres://user@host:5432/db`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new ValidationError(`${field}.connectionString must start with postgres:// or postgresql://`);
  }
  const named = FILE_PARAMS.filter((k) => url.searchParams.has(k));
  if (named.length > 0) throw new ValidationError(`${field}.connectionString may not set ${named.join(", ")}`);
}
