/**
 * What a caller hears when the access rules or a restricted query stop a
 * run: a {@link Refusal} (logged as `refused`), a compile problem of a
 * construct restricted callers may not use (a 403), or a run-time failure of
 * a query over a `#(bind)` source with the database's words withheld
 * ({@link WithheldError}; the query log keeps them).
 * @module
 */

import { QueryError } from "../engine/mod.ts";
import { ForbiddenError } from "../errors.ts";

/** Problem codes of query text a restricted caller may not send (Malloy's restricted mode, redefinitions). */
const RESTRICTED_CODES = new Set(["restricted-construct-forbidden", "source-definition-name-conflict", "query-definition-name-conflict"]);

/** A refusal of the access rules (logged as `refused`); `error` is what the caller hears (a domain error, mapped at the edge). */
export class Refusal extends Error {
  constructor(readonly error: Error) {
    super(error.message);
  }
}

/**
 * The run-time failure of a query over a `#(bind)` source, as a restricted
 * caller (viewer, API key, OAuth client) hears it: without the database's
 * words. The database may evaluate the caller's expressions on rows the
 * bound filter drops (it orders a WHERE clause's conditions as it likes),
 * and its message can quote such a row (`Could not convert string 'US'`).
 * The query log keeps the message for organization admins. This withholds
 * the text only: that a query failed is still seen (see the README's
 * security section on what remains).
 */
export class WithheldError extends QueryError {
  readonly original: string;
  constructor(original: string) {
    super("execution", "the query failed while running; the database's message is withheld because the query reads a source filtered by #(bind), and such messages can quote rows outside your filter (an organization admin sees it in the query log)");
    this.original = original;
  }
}

/**
 * The error a failed run throws: for a restricted caller (viewer, API key,
 * OAuth client), an execution failure of a query whose rules bound
 * attributes becomes a {@link WithheldError}, and a compile problem of a
 * restricted construct a {@link Refusal} (403) that says what such callers
 * may use; any other error is returned unchanged.
 */
export function restrictedFailure(error: unknown, run: { restricted: boolean; boundAttributes: string[] }): unknown {
  if (run.restricted && run.boundAttributes.length > 0 && error instanceof QueryError && error.kind === "execution") return new WithheldError(error.message);
  if (run.restricted && error instanceof QueryError && error.kind === "compile") {
    const refused = error.problems.find((p) => p.code !== undefined && RESTRICTED_CODES.has(p.code));
    if (refused) {
      return new Refusal(new ForbiddenError(`${refused.message.replace(/\.$/, "")}; queries from viewers, API keys and OAuth clients may use only the sources and queries of the model (no connections, imports or redefinitions)`));
    }
  }
  return error;
}
