/**
 * Documents the responses of every operation of the OpenAPI document: the
 * error body `{ code, message, details? }` (a TypeBox schema, the shape every
 * error of the API has) as a shared component answered by every operation
 * (`default`); the typed success answer of each operation from the registry
 * of ./schemas.ts (unless its route declares one); a generic success answer
 * for the rest; then the specification's names (./openapi_names.ts).
 * @module
 */
import { t } from "elysia";
import { specificationNames } from "./openapi_names.ts";
import { SUCCESS, successKey } from "./schemas.ts";

/** The error body of every failed request. */
const ErrorBody = t.Object({
  code: t.String({ description: "Stable error code: one of the enumeration (its usual status: VALIDATION_ERROR 400 or 413, INVALID_PATH, INVALID_CURSOR and QUERY_NOT_ALLOWED 400, AUTHENTICATION_REQUIRED 401, INSUFFICIENT_PERMISSIONS 403, RESOURCE_NOT_FOUND 404, CONFLICT 409, PACKAGE_TOO_LARGE 413, RATE_LIMIT_EXCEEDED 429, INTERNAL_ERROR 500, SERVICE_UNAVAILABLE 503)" }),
  message: t.String({ description: "What went wrong and how to fix it" }),
  details: t.Optional(t.Record(t.String(), t.Unknown(), { description: "Extra facts, e.g. problems of a compile error" })),
}, { additionalProperties: true });

const METHODS = ["get", "put", "post", "delete", "patch", "options", "head"];

type Operation = { responses?: Record<string, unknown>; requestBody?: unknown };

/** Counts of {@link documentResponses}. */
export interface ResponseCounts {
  operations: number;
  /** Operations whose success answer is typed: a schema of its body, or a documented answer without one (204, a redirect). */
  withSuccessSchema: number;
  /** Of those, the ones typed by the registry of ./schemas.ts (the rest declare `response:` in their route). */
  fromRegistry: number;
}

/**
 * Adds the error component, the success answers of the registry (./schemas.ts)
 * and a generic success answer where neither the route nor the registry has
 * one, to an OpenAPI document (in place), then names its parameters and
 * folds its `/projects/` aliases as the specification does; returns counts
 * (of the operations before folding).
 */
export function documentResponses(doc: Record<string, unknown>): ResponseCounts {
  const components = (doc.components ??= {}) as Record<string, Record<string, unknown>>;
  (components.schemas ??= {}).Error = ErrorBody;
  (components.responses ??= {}).Error = {
    description: "Error: `{ code, message }` with the status of the failure (400, 401, 403, 404, 409, 413, 429, 503...)",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  const counts: ResponseCounts = { operations: 0, withSuccessSchema: 0, fromRegistry: 0 };
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      counts.operations++;
      const responses = (op.responses ??= {});
      const success = () => Object.entries(responses).filter(([status]) => /^[23]/.test(status));
      const declared = success().some(([, r]) => typed((r as { content?: Record<string, { schema?: object }> }).content));
      const registered = SUCCESS[successKey(method, path)];
      if (declared) {
        counts.withSuccessSchema++;
      } else if (registered) {
        for (const [status] of success()) delete responses[status];
        const content: Record<string, { schema: unknown }> = {};
        if (registered.json) content["application/json"] = { schema: registered.json };
        for (const [type, schema] of Object.entries(registered.content ?? {})) content[type] = { schema };
        responses[String(registered.status)] = Object.keys(content).length ? { description: registered.description, content } : { description: registered.description };
        counts.withSuccessSchema++;
        counts.fromRegistry++;
      } else if (success().length === 0) {
        responses[method === "delete" ? "204" : "200"] = method === "delete"
          ? { description: "Done (no body)" }
          : { description: "Success (JSON; see the summary and description for its fields)", content: { "application/json": { schema: {} } } };
      }
      responses.default ??= { $ref: "#/components/responses/Error" };
    }
  }
  specificationNames(doc);
  return counts;
}

function typed(content: Record<string, { schema?: object }> | undefined): boolean {
  return Object.values(content ?? {}).some((c) => c.schema !== undefined && Object.keys(c.schema).length > 0);
}
