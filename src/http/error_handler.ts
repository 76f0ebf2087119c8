/**
 * Maps every failure to the `{ code, message }` envelope: our {@link ApiError},
 * Elysia's validation, parse and not-found errors, and anything unexpected
 * (500, logged with the request id, never echoed).
 * @module
 */
import { ApiError, errorResponse } from "./errors.ts";
import type { AppContext } from "./context.ts";
import { requestMeta } from "./context.ts";

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

/** The `onError` hook of the app. */
export function handleError(ctx: AppContext) {
  return ({ code, error, request }: { code: string | number; error: unknown; request: Request }): Response => {
    const id = requestMeta(request)?.id;
    if (error instanceof ApiError) return errorResponse(error, id);
    switch (code) {
      case "VALIDATION":
        return errorResponse(new ApiError("VALIDATION_ERROR", validationMessage(error as ValidationLike)), id);
      case "PARSE":
        return errorResponse(new ApiError("VALIDATION_ERROR", "request body is not valid JSON (or not of its declared content type)"), id);
      case "NOT_FOUND":
        return errorResponse(new ApiError("RESOURCE_NOT_FOUND", `no route for ${request.method} ${new URL(request.url).pathname}`), id);
      case "INVALID_FILE_TYPE":
        return errorResponse(new ApiError("VALIDATION_ERROR", "uploaded file is not of an accepted type"), id);
    }
    const pg = postgresClientError(error);
    if (pg) return errorResponse(pg, id);
    const err = error as Error;
    ctx.log({ level: "error", requestId: id, error: err?.name, message: err?.message, stack: err?.stack });
    return errorResponse(new ApiError("INTERNAL_ERROR", `unexpected server error; quote request id ${id} when reporting it`), id);
  };
}
