/**
 * The arguments of a query (the MCP tool `execute_query`'s, snake_case) and
 * their rules: exactly one of `query` and `query_name`; `query_name` needs
 * `source_name`; `source_name` goes only with `query_name`.
 * @module
 */
import { ValidationError } from "../errors.ts";
import { NAME_PATTERN, VERSION_ID_PATTERN } from "../http/params.ts";
import { checkModelPath } from "../models/model_path.ts";

/** Arguments of a query, named as the MCP tool `execute_query` names them. */
export interface QueryArgs {
  organization: string;
  environment_name: string;
  package_name: string;
  /** Package-relative path of the model file, e.g. `models/flights.malloy`. */
  model_uri: string;
  /** Malloy query text; not with `query_name` or `source_name`. */
  query?: string;
  /** A view of `source_name`, or a top-level named query (still with `source_name`). */
  query_name?: string;
  source_name?: string;
  /** Package version (`1.2.3`); the latest unarchived one when omitted. */
  version_id?: string;
  /** Only packages this workspace has access to. */
  workspace?: string;
  /** Rows to return (at most the node's `QUERY_ROW_LIMIT`). */
  limit?: number;
  /** Compile and authorize only: answer `{ sql, schema, sources }`. */
  dry_run?: boolean;
  /** Values of the model's givens (`$NAME`) by name; givens filled from trusted attributes cannot be set. */
  givens?: Record<string, unknown>;
  /** Also answer Malloy's own result (`malloyResult`) for a renderer (REST `malloyResult: true`). */
  malloy_result?: boolean;
}

/** How argument names appear in error messages: the MCP tool's (`snake`) or REST's (`camel`). */
export type ArgumentStyle = "snake" | "camel";

/** {@link QueryArgs} after {@link checkQueryArgs}: `model_uri` decoded and checked. */
export interface CheckedQueryArgs extends QueryArgs {
  modelPath: string;
}

const CAMEL: Record<string, string> = {
  environment_name: "environmentName",
  package_name: "packageName",
  model_uri: "modelPath",
  query_name: "queryName",
  source_name: "sourceName",
  version_id: "versionId",
  dry_run: "dryRun",
  malloy_result: "malloyResult",
};

/** The name of an argument in the given style. */
export function argName(name: string, style: ArgumentStyle): string {
  return style === "camel" ? CAMEL[name] ?? name : name;
}

function optionalText(args: Record<string, unknown>, key: string, style: ArgumentStyle): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new ValidationError(`${argName(key, style)} must be a non-empty string; leave it out when not used`);
  }
  return value;
}

function requiredName(args: Record<string, unknown>, key: string, style: ArgumentStyle): string {
  const value = args[key];
  const label = argName(key, style);
  if (typeof value !== "string" || value === "") throw new ValidationError(`${label} is required, e.g. "${key === "organization" ? "acme" : "prod"}"`);
  if (!new RegExp(NAME_PATTERN).test(value) || value.length > 128) {
    throw new ValidationError(`${label} '${value}' must be 1-128 letters, digits, '_' or '-'`);
  }
  return value;
}

/**
 * Checks the arguments and their combination rules. Throws a `400
 * VALIDATION_ERROR` naming the broken rule (the MCP layer maps it to -32602).
 */
export function checkQueryArgs(input: unknown, options: { style?: ArgumentStyle } = {}): CheckedQueryArgs {
  const style = options.style ?? "snake";
  const n = (key: string) => argName(key, style);
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new ValidationError("query arguments must be an object");
  }
  const args = input as Record<string, unknown>;
  const organization = requiredName(args, "organization", style);
  const environment_name = requiredName(args, "environment_name", style);
  const package_name = requiredName(args, "package_name", style);
  if (typeof args.model_uri !== "string" || args.model_uri === "") {
    throw new ValidationError(`${n("model_uri")} is required: the package-relative path of the model file, e.g. models/flights.malloy`);
  }
  let modelPath: string;
  try {
    modelPath = checkModelPath(args.model_uri);
  } catch (error) {
    if (style === "snake" && error instanceof Error) throw new ValidationError(error.message.replace(/^modelPath/, "model_uri"));
    throw error;
  }
  const query = optionalText(args, "query", style);
  const query_name = optionalText(args, "query_name", style);
  const source_name = optionalText(args, "source_name", style);
  const version_id = optionalText(args, "version_id", style);
  const workspace = args.workspace === undefined || args.workspace === null ? undefined : requiredName(args, "workspace", style);
  if (query !== undefined && query_name !== undefined) {
    throw new ValidationError(`give either ${n("query")} (Malloy text) or ${n("query_name")} with ${n("source_name")}, not both`);
  }
  if (query === undefined && query_name === undefined) {
    throw new ValidationError(`give ${n("query")} (Malloy text, e.g. "flights -> { aggregate: flight_count }") or ${n("query_name")} with ${n("source_name")}; neither was given`);
  }
  if (query_name !== undefined && source_name === undefined) {
    throw new ValidationError(`${n("query_name")} needs ${n("source_name")}: name the source whose view (or the source of the named query) '${query_name}' is`);
  }
  if (query !== undefined && source_name !== undefined) {
    throw new ValidationError(`${n("source_name")} goes with ${n("query_name")} only; leave it out when giving ${n("query")} text (name the source inside the query)`);
  }
  if (version_id !== undefined && (!new RegExp(VERSION_ID_PATTERN).test(version_id) || version_id.length > 64)) {
    throw new ValidationError(`${n("version_id")} '${version_id}' must be letters, digits, '_', '.' or '-', e.g. 1.0.0`);
  }
  const limit = args.limit === undefined || args.limit === null ? undefined : args.limit;
  if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)) {
    throw new ValidationError(`${n("limit")} must be a positive integer (rows to return, at most the server's QUERY_ROW_LIMIT)`);
  }
  const dryRun = args.dry_run === undefined || args.dry_run === null ? undefined : args.dry_run;
  if (dryRun !== undefined && typeof dryRun !== "boolean") throw new ValidationError(`${n("dry_run")} must be true or false`);
  const givens = args.givens === undefined || args.givens === null ? undefined : args.givens;
  if (givens !== undefined && (typeof givens !== "object" || Array.isArray(givens))) {
    throw new ValidationError(`givens must be an object of the model's givens by name, e.g. { "REGION": "us-east" }`);
  }
  const malloyResult = args.malloy_result === undefined || args.malloy_result === null ? undefined : args.malloy_result;
  if (malloyResult !== undefined && typeof malloyResult !== "boolean") throw new ValidationError(`${n("malloy_result")} must be true or false`);
  return {
    organization, environment_name, package_name, model_uri: args.model_uri, modelPath, query, query_name, source_name, version_id, workspace,
    ...(limit === undefined ? {} : { limit: limit as number }),
    ...(dryRun === undefined ? {} : { dry_run: dryRun as boolean }),
    ...(givens === undefined ? {} : { givens: givens as Record<string, unknown> }),
    ...(malloyResult ? { malloy_result: true } : {}),
  };
}
