/**
 * The two tools of the consumption MCP server, `execute_query` and
 * `get_context`: their input schemas (exactly the seed's arguments), the
 * argument rules (a broken rule is JSON-RPC `-32602`), and the interfaces the
 * query engine and the retrieval layer implement to answer them.
 * @module
 */
import type { Principal } from "../access/principal.ts";
import type { ContextResult } from "../retrieval/answer/context_result.ts";
import { NAME_PATTERN, VERSION_ID_PATTERN } from "../http/params.ts";
import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";


/** Arguments of `execute_query`: `query` alone, or `query_name` with `source_name` (the type of {@link ExecuteQuerySchema}). */
export type ExecuteQueryArgs = Static<typeof ExecuteQuerySchema>;

/** Arguments of `get_context`; the scope chain is environment, package, model, source (the type of {@link GetContextSchema}). */
export type GetContextArgs = Static<typeof GetContextSchema>;

/** The seed's `execute_query` result. */
export interface QueryEnvelope {
  data: Record<string, unknown>[];
  totalRows: number;
  executionTime: number;
  metadata: object;
}

/** Where a tool call comes from: the organization of the path, and the workspace of a restricted endpoint. */
export interface ToolScope {
  orgId: string;
  orgName: string;
  /** Set on `/mcp/{org}/workspace/{workspace_name}`: only that workspace's packages may be used. */
  workspace?: { id: string; name: string };
  /** Aborts when the client goes away. */
  signal?: AbortSignal;
  /** `performance.now()` when the request arrived (cached access decisions are fresh as of then). */
  since?: number;
}

/** The answer of `execute_query` with `dry_run`. */
interface DryRunResult {
  sql: string;
  schema: { name: string; type: string }[];
  sources: string[];
}

/**
 * Runs `execute_query` for a caller. Throws an `ApiError` (RESOURCE_NOT_FOUND,
 * INSUFFICIENT_PERMISSIONS, VALIDATION_ERROR) or the engine's `QueryError`
 * (`kind`, `problems`) for a query that cannot run; both become tool results
 * with `isError: true`.
 */
export interface QueryRunner {
  run(principal: Principal, args: ExecuteQueryArgs, scope: ToolScope): Promise<QueryEnvelope | DryRunResult>;
}

/** Answers `get_context` for a caller, within its permissions and the scope. */
export interface ContextSearcher {
  search(principal: Principal, args: GetContextArgs, scope: ToolScope): Promise<ContextResult>;
}

/** A broken argument rule: the server answers JSON-RPC error `-32602` with this message. */
export class InvalidArgumentsError extends Error {
  /** JSON-RPC "Invalid params". */
  readonly code = -32602;

  constructor(message: string) {
    super(message);
    this.name = "InvalidArgumentsError";
  }
}

/** A non-empty string argument. */
function str(description: string, extra: { pattern?: string; maxLength?: number } = {}) {
  return Type.String({ minLength: 1, description, ...extra });
}

/** Arguments of `execute_query`: this one TypeBox schema is the tool's `inputSchema`, its type and its check. */
const ExecuteQuerySchema = Type.Object({
  environment_name: str("environment holding the package", { pattern: NAME_PATTERN }),
  package_name: str("package holding the model", { pattern: NAME_PATTERN }),
  model_uri: str("package-relative path of the model file, e.g. models/flights.malloy"),
  query: Type.Optional(str("Malloy query text; omit source_name with it")),
  query_name: Type.Optional(str("a view of source_name, or a named query of the model; needs source_name")),
  source_name: Type.Optional(str("the source whose view query_name names; only with query_name")),
  version_id: Type.Optional(str("package version to query (default: the latest)", { pattern: VERSION_ID_PATTERN })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: "rows to return (at most the server's row limit)" })),
  max_chars: Type.Optional(Type.Integer({
    minimum: 500,
    description: "budget of the answer's JSON text (default 50000); rows past it are left out and the answer says truncated: true with returnedRows",
  })),
  dry_run: Type.Optional(Type.Boolean({ description: "compile and authorize without running; answers { sql, schema, sources }" })),
  givens: Type.Optional(Type.Record(Type.String(), Type.Any(), {
    description: "values of the model's givens ($NAME) by name; givens filled from the caller's trusted attributes cannot be set",
  })),
}, { additionalProperties: false });

/** Arguments of `get_context` (see {@link ExecuteQuerySchema}). */
const GetContextSchema = Type.Object({
  natural_language_query: str("the question, in plain language (at most 10,000 characters)", { maxLength: 10_000 }),
  environment_name: Type.Optional(str("search scope: an environment", { pattern: NAME_PATTERN })),
  package_name: Type.Optional(str("search scope: a package; requires environment_name", { pattern: NAME_PATTERN })),
  model_uri: Type.Optional(str("search scope: a model file; requires environment_name and package_name")),
  source_name: Type.Optional(str("search scope: a source; requires environment_name, package_name and model_uri")),
}, { additionalProperties: false });

/** The JSON Schema of a TypeBox schema, as `tools/list` shows it (TypeBox's symbol keys dropped). */
function jsonSchema(schema: TObject): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema));
}

/** `tools/list` entry of `execute_query`. */
export const EXECUTE_QUERY_TOOL = {
  name: "execute_query",
  title: "Run a Malloy query",
  description:
    "Runs a Malloy query against a model of a published package and returns JSON with data, totalRows, " +
    "executionTime and metadata. Use exactly one pattern: `query` (Malloy query text, e.g. " +
    "`flights -> { group_by: carrier; aggregate: flight_count }`) without source_name, or `query_name` " +
    "(a view or named query) together with `source_name`. Find sources and fields with get_context first.",
  inputSchema: jsonSchema(ExecuteQuerySchema),
  outputSchema: {
    type: "object",
    properties: {
      data: { type: "array", items: { type: "object" } },
      totalRows: { type: "number" },
      executionTime: { type: "number" },
      metadata: { type: "object" },
    },
    required: ["data", "totalRows", "executionTime", "metadata"],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const;

/** `tools/list` entry of `get_context`. */
export const GET_CONTEXT_TOOL = {
  name: "get_context",
  title: "Find data entities for a question",
  description:
    "Finds the sources, dimensions, measures, views, raw table columns and indexed values of published models that match a " +
    "natural-language question (semantic matching, not exact). Narrow the search with environment_name, then " +
    "package_name, then model_uri, then source_name; each needs the ones before it. To widen a search, drop " +
    "arguments from the right. The result says how to write the query for execute_query. It also says `retrieval` " +
    "(`llm` when the server's language model split the question into phrases, else `local`) and `status`: `ready`, or " +
    "`indexing` (with `progress`), `index_failed` or `not_indexed` (with `reason`) when the scope is not fully indexed " +
    "and the answer may miss indexed values.",
  inputSchema: jsonSchema(GetContextSchema),
  outputSchema: {
    type: "object",
    properties: {
      sources: { type: "array", items: { type: "object" } },
      close_sources: { type: "array", items: { type: "object" } },
      next_steps: { type: "array", items: { type: "string" } },
      malloy_documentation: { type: "string" },
      retrieval: { type: "string", enum: ["local", "llm"], description: "which path split the question into phrases" },
      status: {
        type: "string",
        enum: ["ready", "indexing", "index_failed", "not_indexed"],
        description: "whether the scope is fully indexed; when not, the answer comes from what is indexed so far",
      },
      progress: {
        type: "object",
        description: "while indexing: versions_indexed, versions_total, units_done, units_total, indexing (env/package@version)",
      },
      reason: { type: "string", description: "why the scope is not fully indexed, and what to do" },
    },
    required: ["sources", "next_steps", "malloy_documentation"],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const;

/**
 * Checks arguments against a tool's TypeBox schema, naming the first broken
 * rule as before: arguments in the order given (unknown name, wrong type,
 * empty string, pattern), then the missing required ones. `null` counts as absent.
 */
function checkShape<T extends TObject>(tool: string, schema: T, args: unknown): Static<T> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new InvalidArgumentsError(`${tool}: arguments must be a JSON object`);
  }
  const out: Record<string, unknown> = {};
  const allowed = Object.keys(schema.properties);
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    const declared = schema.properties[key] as TSchema | undefined;
    if (!declared) throw new InvalidArgumentsError(`${tool}: unknown argument '${key}'; the arguments are ${allowed.join(", ")}`);
    if (value === undefined || value === null) continue;
    const valid = Value.Check(declared, value);
    if (!valid) {
      const type = (declared as { type?: string }).type;
      if (type === "integer") {
        throw new InvalidArgumentsError(`${tool}: argument '${key}' must be an integer of at least ${(declared as { minimum?: number }).minimum ?? 0}`);
      }
      if (type === "boolean") throw new InvalidArgumentsError(`${tool}: argument '${key}' must be true or false`);
      if (typeof value !== "string") {
        throw new InvalidArgumentsError(`${tool}: argument '${key}' must be a string, got ${Array.isArray(value) ? "array" : typeof value}`);
      }
    }
    if (typeof value === "string") {
      if (value.trim() === "") throw new InvalidArgumentsError(`${tool}: argument '${key}' must not be empty`);
      const pattern = (declared as { pattern?: string }).pattern;
      if (pattern && !valid) {
        throw new InvalidArgumentsError(`${tool}: argument '${key}' ('${String(value).slice(0, 80)}') must match ${pattern}`);
      }
      const maxLength = (declared as { maxLength?: number }).maxLength;
      if (maxLength !== undefined && value.length > maxLength) {
        throw new InvalidArgumentsError(`${tool}: argument '${key}' has ${value.length} characters, more than ${maxLength}; send the question, not a document`);
      }
    }
    out[key] = value;
  }
  const missing = (schema.required ?? []).filter((key) => out[key] === undefined);
  if (missing.length > 0) {
    throw new InvalidArgumentsError(`${tool}: missing required argument${missing.length > 1 ? "s" : ""} ${missing.map((k) => `'${k}'`).join(", ")}`);
  }
  if (!Value.Check(schema, out)) throw new InvalidArgumentsError(`${tool}: arguments do not match the tool's input schema`);
  return out;
}

/** A `model_uri` must be a package-relative path of a model file (same rule as the REST `modelPath`). */
function checkModelUri(tool: string, value: unknown): void {
  if (typeof value !== "string") return;
  const segments = value.split("/");
  if (value.includes("\\") || value.includes("\0") || segments.some((s) => s === "" || s === "." || s === "..")) {
    throw new InvalidArgumentsError(`${tool}: 'model_uri' must be a package-relative path without '..' or empty segments, e.g. models/flights.malloy`);
  }
  if (!/\.malloy(nb)?$/.test(value)) throw new InvalidArgumentsError(`${tool}: 'model_uri' must name a .malloy or .malloynb file`);
}

/** Validates `execute_query` arguments; throws {@link InvalidArgumentsError} naming the broken rule. */
export function parseExecuteQueryArgs(args: unknown): ExecuteQueryArgs {
  const a = checkShape("execute_query", ExecuteQuerySchema, args);
  checkModelUri("execute_query", a.model_uri);
  if (a.query !== undefined && a.query_name !== undefined) {
    throw new InvalidArgumentsError("execute_query: give either 'query' or 'query_name' with 'source_name', not both");
  }
  if (a.query === undefined && a.query_name === undefined) {
    throw new InvalidArgumentsError("execute_query: give 'query' (Malloy query text) or 'query_name' with 'source_name'; neither was given");
  }
  if (a.query !== undefined && a.source_name !== undefined) {
    throw new InvalidArgumentsError("execute_query: 'source_name' goes only with 'query_name'; with a custom 'query', name the source inside the query text and omit 'source_name'");
  }
  if (a.query_name !== undefined && a.source_name === undefined) {
    throw new InvalidArgumentsError("execute_query: 'query_name' needs 'source_name' (the source whose view or query it names)");
  }
  return a;
}

const SCOPE_CHAIN = ["environment_name", "package_name", "model_uri", "source_name"] as const;

/** Validates `get_context` arguments, including the scope chain; throws {@link InvalidArgumentsError}. */
export function parseGetContextArgs(args: unknown): GetContextArgs {
  const a = checkShape("get_context", GetContextSchema, args);
  checkModelUri("get_context", a.model_uri);
  for (let i = 1; i < SCOPE_CHAIN.length; i++) {
    const key = SCOPE_CHAIN[i]!;
    if (a[key] === undefined) continue;
    const missing = SCOPE_CHAIN.slice(0, i).filter((k) => a[k] === undefined);
    if (missing.length > 0) {
      throw new InvalidArgumentsError(
        `get_context: '${key}' requires ${missing.map((k) => `'${k}'`).join(" and ")} (scope chain: ${SCOPE_CHAIN.join(" > ")}); add ${missing.length > 1 ? "them" : "it"} or drop '${key}'`,
      );
    }
  }
  return a;
}
