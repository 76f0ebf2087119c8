/**
 * The one error type of the service and its mapping to the seed's error codes.
 *
 * Every failure a client can see is an {@link ApiError}; anything else that
 * escapes a handler becomes `500 INTERNAL_ERROR` with a generic message.
 * @module
 */

/** The machine-readable error codes of the seed (section 7). */
export type ErrorCode =
  | "VALIDATION_ERROR"
  | "AUTHENTICATION_REQUIRED"
  | "INSUFFICIENT_PERMISSIONS"
  | "RESOURCE_NOT_FOUND"
  | "CONFLICT"
  | "RATE_LIMIT_EXCEEDED"
  | "INTERNAL_ERROR"
  | "QUERY_NOT_ALLOWED"
  | "PACKAGE_TOO_LARGE"
  | "INVALID_PATH"
  | "INVALID_CURSOR"
  | "SERVICE_UNAVAILABLE";

const STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  AUTHENTICATION_REQUIRED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  RESOURCE_NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  QUERY_NOT_ALLOWED: 400,
  PACKAGE_TOO_LARGE: 413,
  INVALID_PATH: 400,
  INVALID_CURSOR: 400,
  SERVICE_UNAVAILABLE: 503,
};

/** Every error code the service answers (the OpenAPI document's `Error.code` enumeration). */
export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[];

/** Options of an {@link ApiError}. */
export interface ApiErrorOptions {
  /** Overrides the code's default status (for example 413 for VALIDATION_ERROR). */
  status?: number;
  /** Extra response headers (`Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  /** Extra JSON fields merged into the body (for example `problems`). */
  details?: Record<string, unknown>;
}

/** An error with a code, a status and a message meant for the client. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = options.status ?? STATUS[code];
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
}

/** `400 VALIDATION_ERROR`. */
export function badRequest(message: string, details?: Record<string, unknown>): ApiError {
  return new ApiError("VALIDATION_ERROR", message, { details });
}

/** `404 RESOURCE_NOT_FOUND`. */
export function notFound(message: string): ApiError {
  return new ApiError("RESOURCE_NOT_FOUND", message);
}

/** `403 INSUFFICIENT_PERMISSIONS`. */
export function forbidden(message: string): ApiError {
  return new ApiError("INSUFFICIENT_PERMISSIONS", message);
}

/** `409 CONFLICT`. */
export function conflict(message: string): ApiError {
  return new ApiError("CONFLICT", message);
}

/** `401 AUTHENTICATION_REQUIRED` with a `WWW-Authenticate` challenge. */
export function unauthenticated(message: string, challenge = 'Bearer realm="api"'): ApiError {
  return new ApiError("AUTHENTICATION_REQUIRED", message, {
    headers: { "WWW-Authenticate": challenge },
  });
}

/** The JSON body and status of an error response. */
export function errorResponse(error: ApiError, requestId?: string): Response {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...error.headers,
  };
  if (requestId) headers["x-request-id"] = requestId;
  return new Response(
    JSON.stringify({ code: error.code, message: error.message, ...error.details }),
    { status: error.status, headers },
  );
}
