/**
 * Tells a database that cannot be reached from one that refused a statement.
 * @module
 */

/** postgres.js and socket error codes that mean the database could not be reached or went away. */
const UNREACHABLE = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Whether an error means the platform database is unreachable or unable to
 * answer now: a refused, timed-out or dropped connection, SQLSTATE class 08
 * (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300
 * (too many connections) or 57014 (statement timeout).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const e = error as { code?: unknown; errno?: unknown; cause?: unknown };
  const code = typeof e.code === "string" ? e.code : typeof e.errno === "string" ? e.errno : "";
  if (UNREACHABLE.has(code)) return true;
  if (/^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300" || code === "57014") {
    return true;
  }
  return e.cause !== undefined && e.cause !== error ? isDatabaseUnavailable(e.cause) : false;
}
