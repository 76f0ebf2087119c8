/**
 * Malloy problems as plain JSON, and the typed errors of the engine.
 * @module
 */

import { MalloyError } from "@malloydata/malloy";
import { ApiError } from "../http/errors.ts";
import { hideServerPaths } from "../http/server_paths.ts";

/** One compile or run problem, positions 1-based. */
export interface Problem {
  /** Package-relative file (or the URL/label Malloy reported, e.g. `query`). */
  file?: string;
  line?: number;
  column?: number;
  message: string;
  /** Malloy's problem code when there is one (e.g. `source-not-found`). */
  code?: string;
  severity?: string;
}

/**
 * A query that failed to compile or run. Carries the problems so callers can
 * answer `400` (`toApiError`) or an MCP `isError` result.
 */
export class QueryError extends Error {
  /**
   * `request` (arguments that name nothing or conflict), `compile` (the query
   * does not compile), `execution` (the database refused), `timeout`,
   * `not_allowed` (SQL that is not exactly one read-only statement over the
   * package's own data: `400 QUERY_NOT_ALLOWED`).
   */
  readonly kind: "request" | "compile" | "execution" | "timeout" | "not_allowed";
  readonly problems: Problem[];

  constructor(kind: QueryError["kind"], message: string, problems: Problem[] = []) {
    // Engine messages name extracted package files by absolute path: keep them package-relative.
    message = hideServerPaths(message);
    super(message);
    this.name = "QueryError";
    this.kind = kind;
    this.problems = problems.length > 0
      ? problems.map((p) => ({ ...p, message: hideServerPaths(p.message), ...(p.file ? { file: hideServerPaths(p.file) } : {}) }))
      : [{ message }];
  }

  /** The `400 VALIDATION_ERROR` (with `problems`) a REST route answers. */
  toApiError(): ApiError {
    if (this.kind === "not_allowed") return new ApiError("QUERY_NOT_ALLOWED", this.message, { details: { problems: this.problems } });
    return new ApiError("VALIDATION_ERROR", this.message, { details: { problems: this.problems } });
  }
}

/**
 * Converts whatever Malloy threw into problems. `fileOf` maps a Malloy URL to
 * the name reported to users (package-relative path).
 */
export function problemsOf(error: unknown, fileOf: (url: string) => string | undefined): Problem[] {
  if (error instanceof MalloyError && error.problems.length > 0) {
    return error.problems
      .filter((problem) => problem.severity !== "warn" && problem.severity !== "debug")
      .map((problem) => {
        const start = problem.at?.range.start;
        return {
          file: problem.at ? fileOf(problem.at.url) : undefined,
          line: start ? start.line + 1 : undefined,
          column: start ? start.character + 1 : undefined,
          message: problem.message,
          code: problem.code,
          severity: problem.severity,
        };
      });
  }
  return [{ message: error instanceof Error ? error.message : String(error) }];
}

/**
 * Removes a server folder (e.g. the package's extraction path) from problem
 * messages, and any other server path (see `http/server_paths.ts`): problems
 * are shown in answers that no response scrub visits (watch-mode events and
 * status, notebook cells).
 */
export function redactPath(problems: Problem[], dir: string): Problem[] {
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  return problems.map((problem) => ({
    ...problem,
    // then any other server path: a database quoting its statement cuts the package's path short
    // (`LINE 1: ... from '/srv/data/packages/8e58bcd...`), which the split above does not see
    message: hideServerPaths(problem.message.split(`file://${prefix}`).join("").split(prefix).join("")),
  }));
}

/** One line per problem: `file:line:column: message`. */
export function formatProblems(problems: Problem[]): string {
  return problems
    .map((problem) => {
      const where = [problem.file, problem.line, problem.column].filter((x) => x !== undefined)
        .join(":");
      return where ? `${where}: ${problem.message}` : problem.message;
    })
    .join("\n");
}
