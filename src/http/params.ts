/**
 * TypeBox schemas of path identifiers and paging, shared by every route.
 * @module
 */
import { t } from "elysia";
import type { PrincipalRef } from "../access/principal.ts";

/** Pattern of organization, environment, package, group, workspace, connection, attribute and user names. */
export const NAME_PATTERN = "^[a-zA-Z0-9_-]+$";
/** Pattern of a version id in a path. */
export const VERSION_ID_PATTERN = "^[a-zA-Z0-9_.-]+$";
/** Pattern of a version id created by a publish (semver). */
export const SEMVER_PATTERN = "^[0-9]+\\.[0-9]+\\.[0-9]+$";

/** A name path parameter, with a message that says what is allowed. */
export function name(label: string) {
  return t.String({
    pattern: NAME_PATTERN,
    maxLength: 128,
    error: `${label} must be 1-128 letters, digits, '_' or '-'`,
  });
}

/** A versionId path parameter. */
export const versionIdParam = t.String({
  pattern: VERSION_ID_PATTERN,
  maxLength: 64,
  error: "versionId must be letters, digits, '_', '.' or '-', e.g. 1.0.0",
});

/** A principal path parameter: `user:<name>`, `group:<name>` or `workspace:<name>`. */
export const principalParam = t.String({
  pattern: "^(user|group|workspace):[a-zA-Z0-9_-]+$",
  maxLength: 140,
  error: "principal must be user:<userName>, group:<groupName> or workspace:<workspaceName>",
});

/** `?limit=&cursor=` of lists that can grow without bound. */
export const pageQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 1000, error: "limit must be an integer from 1 to 1000" })),
  cursor: t.Optional(t.String({ maxLength: 1024, error: "cursor must be the value from a Link rel=next header" })),
});

/** Path params `{ org }`. */
export const orgParams = t.Object({ org: name("organizationName") });

/** A user or group reference (`user:<userName>` or `group:<groupName>`), in a path or a body. */
export const userGroupParam = t.String({
  pattern: "^(user|group):[a-zA-Z0-9_-]+$",
  maxLength: 140,
  error: "principal must be user:<userName> or group:<groupName>",
});

/** A UUID path parameter (document ids). */
export function uuid(label: string) {
  return t.String({
    pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    error: `${label} must be a UUID, e.g. 123e4567-e89b-12d3-a456-426614174000`,
  });
}

/** Path params `{ org, group }`. */
export const groupParams = t.Object({ org: name("organizationName"), group: name("groupName") });

/** Splits `user:bob` into `{ kind: "user", name: "bob" }` (the schema already checked the pattern). */
export function parsePrincipal(text: string): PrincipalRef {
  const colon = text.indexOf(":");
  return { kind: text.slice(0, colon) as PrincipalRef["kind"], name: text.slice(colon + 1) };
}
