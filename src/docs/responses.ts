/**
 * Documents the responses of every operation of the OpenAPI document: the
 * error body `{ code, message, details? }` (a TypeBox schema, the shape every
 * error of the API has) as a shared component answered by every operation
 * (`default`), and a success response for operations whose route declares no
 * response schema.
 * @module
 */
import { t } from "elysia";

/** The error body of every failed request. */
export const ErrorBody = t.Object({
  code: t.String({ description: "Stable error code, e.g. VALIDATION_ERROR, AUTHENTICATION_REQUIRED, FORBIDDEN, NOT_FOUND, CONFLICT" }),
  message: t.String({ description: "What went wrong and how to fix it" }),
  details: t.Optional(t.Record(t.String(), t.Unknown(), { description: "Extra facts, e.g. problems of a compile error" })),
}, { additionalProperties: true });

const METHODS = ["get", "put", "post", "delete", "patch", "options", "head"];

type Operation = { responses?: Record<string, unknown>; requestBody?: unknown };

/** Adds the error component and the missing responses to an OpenAPI document (in place); returns counts. */
export function documentResponses(doc: Record<string, unknown>): { operations: number; withSuccessSchema: number } {
  const components = (doc.components ??= {}) as Record<string, Record<string, unknown>>;
  (components.schemas ??= {}).Error = ErrorBody;
  (components.responses ??= {}).Error = {
    description: "Error: `{ code, message }` with the status of the failure (400, 401, 403, 404, 409, 413, 429, 503...)",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  let operations = 0;
  let withSuccessSchema = 0;
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations++;
      const responses = (op.responses ??= {});
      const success = Object.entries(responses).filter(([status]) => /^2/.test(status));
      if (success.some(([, r]) => (r as { content?: unknown }).content)) withSuccessSchema++;
      if (success.length === 0) {
        responses[method === "post" ? "200" : method === "delete" ? "204" : "200"] = method === "delete"
          ? { description: "Done (no body)" }
          : { description: "Success (JSON; see the summary and description for its fields)", content: { "application/json": { schema: {} } } };
      }
      responses.default ??= { $ref: "#/components/responses/Error" };
    }
  }
  return { operations, withSuccessSchema };
}
