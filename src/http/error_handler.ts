/**
 * Maps every failure to the `{ code, message }` envelope: our {@link ApiError},
 * Elysia's validation, parse and not-found errors, and anything unexpected
 * (500, logged with the request id, never echoed).
 * @module
 */
import { ApiError, errorResponse, unauthenticated } from "./errors.ts";
import type { AppContext } from "../context.ts";
import { requestMeta } from "./request_meta.ts";
import { bodyExceeded } from "./edge.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { AuthenticationError, ConflictError, DomainError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from "../errors.ts";

interface ValidationLike {
  type?: string;
  all?: { path?: string; message?: string; summary?: string; schema?: { error?: unknown } }[];
  customError?: unknown;
  message?: string;
}

const PLACES: Record<string, string> = { params: "path parameter", query: "query parameter", body: "body field", headers: "header" };

function validationMessage(error: ValidationLike): string {
  const place = PLACES[error.type ?? ""] ?? "field";
  const first = error.all?.[0];
  const field = first?.path ? first.path.replace(/^\//, "").replaceAll("/", ".") : "";
  const custom = typeof first?.schema?.error === "string" ? first.schema.error : undefined;
  const detail = custom ?? first?.summary ?? first?.message ?? "is not valid";
  if (!field) return error.type === "body" ? `request body ${detail.replace(/^Expected/, "expected")}` : `${place}: ${detail}`;
  if (custom) return `${place} '${field}': ${custom}`;
  return `${place} '${field}': ${detail}`;
}

/** Status of a Postgres error raised by a constraint, when it is the client's fault. */
function postgresClientError(error: unknown): ApiError | null {
  const code = (error as { code?: string })?.code;
  if (code === "23505") return new ApiError("CONFLICT", "a resource with that name already exists");
  if (code === "22P02" || code === "22001") return new ApiError("VALIDATION_ERROR", "a value in the request is not valid for its field");
  return null;
}

/** Seconds a client should wait before retrying while the platform database is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;

/** `503 SERVICE_UNAVAILABLE` with `Retry-After`: the platform database cannot be reached. */
function databaseUnavailable(): ApiError {
  return new ApiError("SERVICE_UNAVAILABLE", "the platform database is unreachable; retry after the number of seconds in Retry-After", {
    headers: { "Retry-After": String(DATABASE_RETRY_AFTER_S) },
  });
}

/**
 * The one class→status table: a domain error (src/errors.ts) as the
 * {@link ApiError} a client sees, an `ApiError` as itself, anything else `null`.
 */
export function apiErrorOf(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (!(error instanceof DomainError)) return null;
  const details = { details: error.details };
  if (error instanceof NotFoundError) return new ApiError("RESOURCE_NOT_FOUND", error.message, details);
  if (error instanceof ForbiddenError) return new ApiError("INSUFFICIENT_PERMISSIONS", error.message, details);
  if (error instanceof ConflictError) return new ApiError("CONFLICT", error.message, details);
  if (error instanceof ValidationError) return new ApiError("VALIDATION_ERROR", error.message, details);
  if (error instanceof AuthenticationError) return unauthenticated(error.message, error.challenge);
  if (error instanceof RateLimitedError) {
    return new ApiError("RATE_LIMIT_EXCEEDED", error.message, { ...details, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
  return new ApiError("INTERNAL_ERROR", error.message, details);
}

/** The `onError` hook of the app. */
export function handleError(ctx: AppContext) {
  return ({ code, error, request }: { code: string | number; error: unknown; request: Request }): Response => {
    const id = requestMeta(request)?.id;
    const api = apiErrorOf(error);
    if (api) return errorResponse(api, id);
    switch (code) {
      case "VALIDATION":
        return errorResponse(new ApiError("VALIDATION_ERROR", validationMessage(error as ValidationLike)), id);
      case "PARSE":
        if (bodyExceeded(request)) {
          return errorResponse(new ApiError("VALIDATION_ERROR", "request body is larger than the upload limit (MAX_UPLOAD_BYTES)", { status: 413 }), id);
        }
        return errorResponse(new ApiError("VALIDATION_ERROR", "request body is not valid JSON (or not of its declared content type)"), id);
      case "NOT_FOUND":
        return errorResponse(new ApiError("RESOURCE_NOT_FOUND", `no route for ${request.method} ${new URL(request.url).pathname}`), id);
      case "INVALID_FILE_TYPE":
        return errorResponse(new ApiError("VALIDATION_ERROR", "uploaded file is not of an accepted type"), id);
    }
    if (isDatabaseUnavailable(error)) {
      const err = error as Error;
      ctx.log({ level: "warn", event: "database_unavailable", requestId: id, error: err?.message });
      return errorResponse(databaseUnavailable(), id);
    }
    const pg = postgresClientError(error);
    if (pg) return errorResponse(pg, id);
    const err = error as Error;
    ctx.log({ level: "error", requestId: id, error: err?.name, message: err?.message, stack: err?.stack });
    return errorResponse(new ApiError("INTERNAL_ERROR", `unexpected server error; quote request id ${id} when reporting it`), id);
  };
}
