/**
 * The body check every route gets before validation (registered once on the
 * root app). Elysia's validation turns a JSON string, number, boolean or array
 * into `{}` when a route's body schema is an object with optional fields, and
 * a route whose body is optional takes a malformed JSON body as no body at
 * all: either would run the operation with its defaults on input the caller
 * did not mean. So a parsed body must be a JSON object (or a form), and JSON
 * text that parsed to nothing is malformed. Routes that read their own body
 * (`parse: "none"`: uploads, MCP, OAuth) are not parsed by Elysia and pass.
 * @module
 */
import { requestMeta } from "./request_meta.ts";
import { ApiError } from "./errors.ts";

/** `onTransform` hook: refuses a parsed body that is not an object, and malformed JSON, with `400 VALIDATION_ERROR`. */
export function checkJsonBody({ body, request }: { body: unknown; request: Request }): void {
  if (body === undefined) {
    // Elysia read the body (its parser ran) yet found nothing in JSON text that is not blank
    if (request.bodyUsed && requestMeta(request)?.jsonBody) {
      throw new ApiError("VALIDATION_ERROR", "request body is not valid JSON");
    }
    return;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    const got = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
    throw new ApiError("VALIDATION_ERROR", `request body must be a JSON object (got ${got}); send Content-Type: application/json with an object`);
  }
}
