/**
 * Domain errors: what went wrong, in the domain's words, with no HTTP status.
 * Stores and domain modules throw these; `src/http/error_handler.ts`
 * ({@link toApiError} there) is the one place that maps them to statuses and codes.
 * @module
 */

/** Base class of the domain errors (never carries a `status`: Elysia would use it). */
export class DomainError extends Error {
  /** Extra JSON fields a client sees next to `code` and `message` (for example `problems`). */
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.details = details;
  }
}

/** The resource does not exist, or the caller may not know that it does. */
export class NotFoundError extends DomainError {
  override name = "NotFoundError";
}

/** The caller sees the resource but its role is too low for the operation. */
export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
}

/** The operation collides with the current state (a duplicate name, a finished run, a used token). */
export class ConflictError extends DomainError {
  override name = "ConflictError";
}

/** Too many attempts (failed sign-ins, password checks waiting): retry after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  override name = "RateLimitedError";
  /** Seconds to wait before retrying (the `Retry-After` header). */
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A value the caller sent is not valid for its field (or a package it sent does not pass a check: `details.problems`). */
export class ValidationError extends DomainError {
  override name = "ValidationError";
}

/** The credentials the caller sent do not sign it in (a wrong user name or password, an invalid or revoked token). */
export class AuthenticationError extends DomainError {
  override name = "AuthenticationError";
  /** How to sign in instead (an RFC 7235 challenge such as `Bearer realm="app"`), when not the API's default. */
  readonly challenge: string | undefined;
  constructor(message: string, challenge?: string) {
    super(message);
    this.challenge = challenge;
  }
}
