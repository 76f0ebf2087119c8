/**
 * One MCP server per request (stateless): the SDK's low-level `Server` with
 * the tools capability only, `tools/list` and `tools/call`.
 *
 * The low-level `Server` is used instead of `McpServer` on purpose: `McpServer`
 * turns every error of a tool call, invalid arguments included, into a tool
 * result with `isError: true`, while API.md wants JSON-RPC `-32602` for
 * arguments that break a rule and `isError` results only for queries that fail.
 * @module
 */
// deno-lint-ignore-file no-deprecated
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { apiErrorOf } from "../http/error_handler.ts";
import type { Principal } from "../access/principal.ts";
import {
  EXECUTE_QUERY_TOOL,
  GET_CONTEXT_TOOL,
  InvalidArgumentsError,
  parseExecuteQueryArgs,
  parseGetContextArgs,
  type ContextSearcher,
  type QueryRunner,
  type ToolScope,
} from "./tools.ts";
import { fitted } from "./result_budget.ts";

/** Name and version the server reports on `initialize`. */
const SERVER_INFO = { name: "malloy-platform-mcp", version: "0.1.0" } as const;

/** The `instructions` of `initialize`. */
const INSTRUCTIONS = [
  "This server answers questions with the Malloy semantic models published in this organization.",
  "1. get_context: pass the question as natural_language_query (optionally narrowed by environment_name > package_name > model_uri > source_name) to find the sources, dimensions, measures, views and indexed values that match it.",
  "2. execute_query: run Malloy against one model (environment_name, package_name, model_uri) with either `query` (Malloy text) or `query_name` + `source_name`; the answer is JSON with data, totalRows, executionTime and metadata; rows past `max_chars` (default 50,000 characters of JSON) are left out and the answer says `truncated: true` with `returnedRows`, so aggregate or pass `limit`.",
  "Arguments that break these rules are JSON-RPC errors -32602; a query that fails to compile or run is a tool result with isError and the problem's line and column.",
].join("\n");

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  scope: ToolScope;
  queryRunner?: QueryRunner;
  contextSearcher?: ContextSearcher;
  /** Request id quoted in messages about unexpected failures. */
  requestId?: string;
  /** Structured log sink for unexpected failures. */
  log?: (line: Record<string, unknown>) => void;
}

interface ProblemLike {
  file?: string;
  line?: number;
  column?: number;
  message: string;
  hint?: string;
}

/** The engine's `QueryError` (src/engine/problems.ts), recognized without loading Malloy here. */
function isQueryError(error: unknown): error is Error & { kind: string; problems: ProblemLike[] } {
  return error instanceof Error && error.name === "QueryError" && typeof (error as { kind?: unknown }).kind === "string" &&
    Array.isArray((error as { problems?: unknown }).problems);
}

const HINTS: Record<string, string> = {
  request: "check environment_name, package_name, model_uri, source_name and query_name; get_context lists what exists.",
  compile: "fix the query at the line and column shown; get_context lists the fields of each source.",
  execution: "the database refused the query; check the filters and the types of the fields compared.",
  timeout: "the query ran too long; add filters or a limit and run it again.",
};

function problemLine(problem: ProblemLike): string {
  const where = [problem.file, problem.line, problem.column].filter((x) => x !== undefined).join(":");
  const text = where ? `${where}: ${problem.message}` : problem.message;
  return problem.hint ? `${text} (hint: ${problem.hint})` : text;
}

function errorResult(text: string, details?: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text }], isError: true };
  if (details) result._meta = { error: details };
  return result;
}

/** Turns what a runner or searcher threw into an `isError` tool result (never a crash). */
function failure(tool: string, error: unknown, options: McpServerOptions): CallToolResult {
  if (error instanceof InvalidArgumentsError) throw error;
  const api = apiErrorOf(error);
  if (api) {
    return errorResult(`${tool} failed: ${api.code}: ${api.message}`, { code: api.code, ...api.details });
  }
  if (isQueryError(error)) {
    const lines = [`${tool} failed (${error.kind} error): ${error.message}`];
    const listed = error.problems.filter((p) => p.message !== error.message || p.line !== undefined);
    for (const problem of listed) lines.push(`- ${problemLine(problem)}`);
    if (HINTS[error.kind]) lines.push(`Hint: ${HINTS[error.kind]}`);
    return errorResult(lines.join("\n"), { kind: error.kind, problems: error.problems });
  }
  options.log?.({ level: "error", requestId: options.requestId, tool, error: (error as Error)?.name, message: (error as Error)?.message, stack: (error as Error)?.stack });
  return errorResult(`${tool} failed unexpectedly on the server; quote request id ${options.requestId ?? "(none)"} when reporting it`);
}

/**
 * A tool's answer; `json` (a success) is the JSON text of its structured
 * content, which is also its text content: serialized once.
 */
export interface ToolAnswer {
  result: CallToolResult;
  json?: string;
}

function success(value: object, json = JSON.stringify(value)): ToolAnswer {
  return { result: { content: [{ type: "text", text: json }], structuredContent: value as Record<string, unknown> }, json };
}

function failed(result: CallToolResult): ToolAnswer {
  return { result };
}

/** Runs a tool for a caller: an `isError` result for what failed, {@link InvalidArgumentsError} for broken arguments. */
export async function callTool(principal: Principal, name: string, args: unknown, options: McpServerOptions): Promise<ToolAnswer> {
  if (name === EXECUTE_QUERY_TOOL.name) {
    const parsed = parseExecuteQueryArgs(args);
    if (!options.queryRunner) {
      return failed(errorResult("execute_query is not available: the query engine is not configured on this server yet; try again after the next deployment"));
    }
    try {
      const result = await options.queryRunner.run(principal, parsed, options.scope);
      if (!("data" in result)) return success(result);
      const { value, json } = fitted(result, parsed.max_chars);
      return success(value, json);
    } catch (error) {
      return failed(failure(name, error, options));
    }
  }
  if (name === GET_CONTEXT_TOOL.name) {
    const parsed = parseGetContextArgs(args);
    if (!options.contextSearcher) {
      return failed(errorResult("get_context is not built yet: semantic search over published models is not configured on this server; use execute_query with known source names meanwhile"));
    }
    try {
      return success(await options.contextSearcher.search(principal, parsed, options.scope));
    } catch (error) {
      return failed(failure(name, error, options));
    }
  }
  throw new InvalidArgumentsError(`unknown tool '${name}'; the tools are ${EXECUTE_QUERY_TOOL.name} and ${GET_CONTEXT_TOOL.name}`);
}

/** A fresh MCP server for one request of one caller. */
export function createMcpServer(principal: Principal, options: McpServerOptions): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [structuredClone(GET_CONTEXT_TOOL), structuredClone(EXECUTE_QUERY_TOOL)] as never,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => (await callTool(principal, request.params.name, request.params.arguments, options)).result);
  return server;
}
