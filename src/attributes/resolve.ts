/**
 * Effective trusted-attribute values of a user in an organization.
 *
 * Rules: the user's own value wins; otherwise the values of the groups the
 * user belongs to (transitively through nested groups) decide — for scalar
 * types the value with the lowest rank (a null rank sorts last, ties by group
 * name), for `string_list` the union of all group values in that order
 * (duplicates dropped); otherwise the declared default (null when none). A
 * user's own `string_list` value replaces the group values, it is not merged.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { AttributeType } from "./store.ts";

/** Options of {@link resolveAttributes}. */
export interface ResolveOptions {
  userId: string;
  orgId: string;
  /** Only this attribute. */
  name?: string;
}

function effective(type: AttributeType, own: unknown, groups: unknown[], dflt: unknown): unknown {
  if (own !== null && own !== undefined) return own;
  if (groups.length === 0) return dflt ?? null;
  if (type !== "string_list") return groups[0];
  const seen = new Set<string>();
  for (const list of groups) for (const v of list as string[]) seen.add(v);
  return [...seen];
}

/** Effective value of every attribute of the organization for a user, by attribute name. */
export async function resolveAttributes(db: Db, options: ResolveOptions): Promise<Record<string, unknown>> {
  const rows = await db`
    WITH ug AS (SELECT group_id FROM principal_groups('user', ${options.userId}::uuid))
    SELECT a.name, a.type, a.default_value,
      (SELECT v.value FROM attribute_user_values v WHERE v.attribute_id = a.id AND v.user_id = ${options.userId}) AS own,
      coalesce((SELECT jsonb_agg(v.value ORDER BY v.rank NULLS LAST, g.name)
                  FROM attribute_group_values v JOIN groups g ON g.id = v.group_id JOIN ug ON ug.group_id = g.id
                 WHERE v.attribute_id = a.id), '[]'::jsonb) AS groups
      FROM attributes a
     WHERE a.org_id = ${options.orgId} AND (${options.name ?? null}::text IS NULL OR a.name = ${options.name ?? null})`;
  const out: Record<string, unknown> = {};
  for (const r of rows) out[r.name as string] = effective(r.type as AttributeType, r.own, r.groups as unknown[], r.default_value);
  return out;
}

/** Effective value of one attribute for a user (`undefined` when the attribute is not declared). */
export async function resolveAttribute(db: Db, options: ResolveOptions & { name: string }): Promise<unknown> {
  return (await resolveAttributes(db, options))[options.name];
}
