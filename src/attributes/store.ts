/**
 * SQL of trusted attributes: a typed schema per organization, with user-scoped
 * and group-scoped values (values are jsonb).
 * @module
 */
import { ConflictError, ValidationError } from "../errors.ts";
import type { Db } from "../db/database.ts";

/** Types an attribute can declare. */
export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "string_list"] as const;

/** One of {@link ATTRIBUTE_TYPES}. */
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** An attribute with all its values, as the API shows it. */
export interface AttributeView {
  name: string;
  type: AttributeType;
  defaultValue: unknown;
  userValues: { userName: string; value: unknown }[];
  groupValues: { groupName: string; value: unknown; rank: number | null }[];
}

/** Whether a value fits a type. */
function fitsType(type: AttributeType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "string_list":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
  }
}

/** 400 unless the value fits the attribute's type. */
export function checkValue(type: AttributeType, value: unknown, field: string): void {
  if (!fitsType(type, value)) {
    const example = { string: '"text"', number: "42", boolean: "true", string_list: '["a", "b"]' }[type];
    throw new ValidationError(`${field} must be a ${type.replace("_", " ")} (e.g. ${example}); got ${JSON.stringify(value) ?? "nothing"}`);
  }
}

/** Options of {@link listAttributes}. */
export interface AttributeListOptions {
  limit: number;
  /** Name of the last attribute of the previous page. */
  after?: string;
  /** Only this attribute. */
  name?: string;
}

/** Attributes of an organization ordered by name (`limit + 1` rows), each with all its values. */
export async function listAttributes(db: Db, orgId: string, options: AttributeListOptions): Promise<(AttributeView & { id: string })[]> {
  const rows = await db<(AttributeView & { id: string })[]>`
    SELECT a.id, a.name, a.type, a.default_value AS "defaultValue",
      coalesce((SELECT jsonb_agg(jsonb_build_object('userName', u.user_name, 'value', v.value) ORDER BY u.user_name)
                  FROM attribute_user_values v JOIN users u ON u.id = v.user_id WHERE v.attribute_id = a.id), '[]'::jsonb) AS "userValues",
      coalesce((SELECT jsonb_agg(jsonb_build_object('groupName', g.name, 'value', v.value, 'rank', v.rank) ORDER BY v.rank NULLS LAST, g.name)
                  FROM attribute_group_values v JOIN groups g ON g.id = v.group_id WHERE v.attribute_id = a.id), '[]'::jsonb) AS "groupValues"
      FROM attributes a
     WHERE a.org_id = ${orgId} AND a.name > ${options.after ?? ""}
       AND (${options.name ?? null}::text IS NULL OR a.name = ${options.name ?? null})
     ORDER BY a.name LIMIT ${options.limit + 1}`;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type,
    defaultValue: r.defaultValue ?? null,
    userValues: r.userValues,
    groupValues: r.groupValues,
  }));
}

/**
 * A value as a jsonb parameter. postgres.js sends a JavaScript boolean as a
 * `bool` parameter, which PostgreSQL cannot cast to jsonb; the JSON text cast
 * from `text` works for every type.
 */
function jsonb(db: Db, value: unknown) {
  return db`${value === undefined || value === null ? null : JSON.stringify(value)}::text::jsonb`;
}

/** Published sources (`package@version model#source`) whose `#(bind)` names attribute `name` of organization `orgId`. */
async function bindingSources(db: Db, orgId: string, name: string): Promise<string[]> {
  const rows = await db<{ where: string }[]>`
    SELECT DISTINCT p.name || '@' || v.version_id || ' ' || vm.model_path || '#' || (s->>'name') AS "where"
      FROM version_models vm JOIN package_versions v ON v.id = vm.version JOIN packages p ON p.id = v.package_id
      JOIN environments e ON e.id = p.env_id
      CROSS JOIN LATERAL jsonb_array_elements(vm.metadata->'sources') s
     WHERE e.org_id = ${orgId}
       AND EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(s->'access'->'bindings', '[]'::jsonb)) b WHERE b->>'attribute' = ${name})
     ORDER BY 1`;
  return rows.map((r) => r.where);
}

/**
 * Declares or replaces an attribute. Same type: the values stay. Another
 * type while user or group values exist: ConflictError naming how many and
 * which published sources bind the attribute (values are never dropped
 * silently; delete them first). Without values the type changes. Returns whether it was created.
 */
export async function putAttribute(db: Db, orgId: string, attr: { name: string; type: AttributeType; defaultValue: unknown }): Promise<boolean> {
  const [old] = await db<{ id: string; type: AttributeType }[]>`SELECT id, type FROM attributes WHERE org_id = ${orgId} AND name = ${attr.name} FOR UPDATE`;
  if (!old) {
    await db`INSERT INTO attributes (org_id, name, type, default_value) VALUES (${orgId}, ${attr.name}, ${attr.type}, ${jsonb(db, attr.defaultValue)})`;
    return true;
  }
  if (old.type !== attr.type) {
    const [n] = await db<{ users: number; groups: number }[]>`
      SELECT (SELECT count(*)::int FROM attribute_user_values WHERE attribute_id = ${old.id}) AS users,
             (SELECT count(*)::int FROM attribute_group_values WHERE attribute_id = ${old.id}) AS groups`;
    if (n!.users + n!.groups > 0) {
      const sources = await bindingSources(db, orgId, attr.name);
      const held = `${n!.users} user value${n!.users === 1 ? "" : "s"} and ${n!.groups} group value${n!.groups === 1 ? "" : "s"}`;
      const used = sources.length > 0
        ? `published sources bind it with #(bind): ${sources.slice(0, 20).join(", ")}${sources.length > 20 ? ` and ${sources.length - 20} more` : ""}`
        : "no published source binds it";
      throw new ConflictError(
        `attribute '${attr.name}' is ${old.type} and holds ${held} (${used}); to make it ${attr.type}, delete its values first (DELETE .../attributes/${attr.name}/users/{userName} and .../groups/{group}); models that bind it must then fit the new type`,
      );
    }
  }
  await db`UPDATE attributes SET type = ${attr.type}, default_value = ${jsonb(db, attr.defaultValue)}, updated_at = now() WHERE id = ${old.id}`;
  return false;
}

/** Sets (creates or replaces) a user's value. */
export async function putUserValue(db: Db, attributeId: string, value: { userId: string; value: unknown }): Promise<void> {
  await db`INSERT INTO attribute_user_values (attribute_id, user_id, value) VALUES (${attributeId}, ${value.userId}, ${jsonb(db, value.value)})
           ON CONFLICT (attribute_id, user_id) DO UPDATE SET value = excluded.value, updated_at = now()`;
}

/** Removes a user's value by user name (no error when absent). */
export async function deleteUserValue(db: Db, attributeId: string, userName: string): Promise<void> {
  await db`DELETE FROM attribute_user_values v USING users u WHERE v.user_id = u.id AND u.user_name = ${userName} AND v.attribute_id = ${attributeId}`;
}

/** Sets (creates or replaces) a group's value and rank. */
export async function putGroupValue(db: Db, attributeId: string, value: { groupId: string; value: unknown; rank: number | null }): Promise<void> {
  await db`INSERT INTO attribute_group_values (attribute_id, group_id, value, rank)
           VALUES (${attributeId}, ${value.groupId}, ${jsonb(db, value.value)}, ${value.rank})
           ON CONFLICT (attribute_id, group_id) DO UPDATE SET value = excluded.value, rank = excluded.rank, updated_at = now()`;
}

/** Removes a group's value by group name (no error when absent). */
export async function deleteGroupValue(db: Db, attributeId: string, groupName: string): Promise<void> {
  await db`DELETE FROM attribute_group_values v USING groups g
            WHERE v.group_id = g.id AND g.name = ${groupName} AND v.attribute_id = ${attributeId}`;
}
