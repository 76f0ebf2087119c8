/**
 * What the edge adds to every operation of the OpenAPI document: the
 * refusals that happen before routing (`400 INVALID_PATH`, `400` bodies,
 * `413`), `400 INVALID_CURSOR` on paged lists and `503 SERVICE_UNAVAILABLE`
 * while the platform database is unreachable.
 * @module
 */

const ERROR_SCHEMA = {
  type: "object",
  required: ["code", "message"],
  properties: { code: { type: "string" }, message: { type: "string" } },
};

function errorResponse(description: string, codes: string[], headers?: Record<string, unknown>) {
  return {
    description,
    content: { "application/json": { schema: { ...ERROR_SCHEMA, properties: { ...ERROR_SCHEMA.properties, code: { type: "string", enum: codes } } } } },
    ...(headers ? { headers } : {}),
  };
}

/** Shared responses, referenced from every operation. */
const EDGE_RESPONSES = {
  BadRequest: errorResponse(
    "INVALID_PATH: the path holds a dot segment in any encoding (`%2E%2E`, `..%2f`, `%252e`, overlong `%c0%ae`), a backslash, NUL or " +
      "another control character, an unpaired surrogate or invalid UTF-8 (checked once, before routing). VALIDATION_ERROR: a query " +
      "string with invalid UTF-8 or NUL, a JSON body nested deeper than 64 levels or holding NUL or an unpaired surrogate in a string, " +
      "a PATCH body that is not a JSON object, or a field that breaks its schema. INVALID_CURSOR: a `cursor` this service did not issue.",
    ["INVALID_PATH", "VALIDATION_ERROR", "INVALID_CURSOR"],
  ),
  PayloadTooLarge: errorResponse(
    "VALIDATION_ERROR with status 413: the body is larger than the route's limit (`MAX_BODY_BYTES`, default 2 MiB, for JSON; " +
      "`MAX_UPLOAD_BYTES`, default 256 MiB, for multipart and zip uploads).",
    ["VALIDATION_ERROR", "PACKAGE_TOO_LARGE"],
  ),
  ServiceUnavailable: errorResponse(
    "SERVICE_UNAVAILABLE: the platform database is unreachable; retry after `Retry-After` seconds. Answered within 2 s, never a 500.",
    ["SERVICE_UNAVAILABLE"],
    { "Retry-After": { schema: { type: "integer" }, description: "seconds to wait before retrying" } },
  ),
};

interface Operation {
  responses?: Record<string, unknown>;
}

/** Adds the edge's responses to every operation of an OpenAPI document (in place) and returns it. */
export function addEdgeResponses(doc: { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> }) {
  doc.components ??= {};
  const components = doc.components as { responses?: Record<string, unknown> };
  components.responses = { ...components.responses, ...EDGE_RESPONSES };
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method) || typeof op !== "object" || !op) continue;
      op.responses ??= {};
      op.responses["400"] ??= { $ref: "#/components/responses/BadRequest" };
      if (method !== "get" && method !== "delete") op.responses["413"] ??= { $ref: "#/components/responses/PayloadTooLarge" };
      if (path !== "/health") op.responses["503"] ??= { $ref: "#/components/responses/ServiceUnavailable" };
    }
  }
  return doc;
}
