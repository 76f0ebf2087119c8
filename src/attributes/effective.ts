/**
 * Effective trusted-attribute values of a user or a group (an API key acts
 * as its group), with where each value comes from.
 *
 * - user: the user's own value; else the values of the groups the user
 *   belongs to (transitively): lowest rank wins for scalars (null rank last,
 *   ties by group name), union in that order for `string_list`; else the
 *   default; else null.
 * - group: the group's own value; else the values of the groups it is nested
 *   in, by the same rules; else the default.
 *
 * `from` is `user`, `group:<name>` (for a union, the first contributing
 * group; `fromGroups` lists all) or `default`; absent when the value is null.
 * @module
 */
import type { AttributeType } from "./store.ts";
import type { Db } from "../db/database.ts";

/** Whose values: a user or a group, by id. */
export interface Holder {
  kind: "user" | "group";
  id: string;
}

/** One attribute's effective value. */
export interface EffectiveValue {
  name: string;
  type: AttributeType;
  value: unknown;
  from?: string;
  /** Every group a `string_list` union came from, lowest rank first. */
  fromGroups?: string[];
}

/** Options of {@link effectiveValues}. */
export interface EffectiveOptions {
  orgId: string;
  /** Only these attributes (all of the organization when absent). */
  names?: string[];
}

/** A row of {@link effectiveRowsQuery}. */
export interface Row {
  name: string;
  type: AttributeType;
  default_value: unknown;
  own: unknown;
  own_name: string | null;
  groups: { g: string; v: unknown }[];
}

function decide(r: Row, ownFrom: string): EffectiveValue {
  const base = { name: r.name, type: r.type };
  if (r.own !== null && r.own !== undefined) return { ...base, value: r.own, from: ownFrom };
  const groups = r.groups.filter((x) => x.v !== null && x.v !== undefined);
  if (groups.length > 0) {
    if (r.type !== "string_list") return { ...base, value: groups[0]!.v, from: `group:${groups[0]!.g}` };
    const seen = new Set<string>();
    for (const x of groups) for (const v of x.v as string[]) seen.add(v);
    return { ...base, value: [...seen], from: `group:${groups[0]!.g}`, fromGroups: groups.map((x) => x.g) };
  }
  if (r.default_value !== null && r.default_value !== undefined) return { ...base, value: r.default_value, from: "default" };
  return { ...base, value: null };
}

/**
 * Effective values of a user or group for the attributes of an organization
 * (one statement), ordered by attribute name.
 */
export async function effectiveValues(db: Db, holder: Holder, options: EffectiveOptions): Promise<EffectiveValue[]> {
  const rows = await db`${effectiveRowsQuery(db, holder, { org: db`${options.orgId}::uuid`, names: options.names })} ORDER BY a.name`;
  return decideRows(rows as unknown as Row[], holder);
}

/**
 * The statement of {@link effectiveValues} as a fragment, for a caller that
 * reads the values inside a statement of its own (`org`: an expression of
 * the organization id, e.g. a column of that statement); turn its rows into
 * values with {@link decideRows}.
 */
export function effectiveRowsQuery(db: Db, holder: Holder, where: { org: ReturnType<Db>; names?: string[] }) {
  const names = where.names ?? null;
  const userId = holder.kind === "user" ? holder.id : null;
  const groupId = holder.kind === "group" ? holder.id : null;
  return db`
    SELECT a.name, a.type, a.default_value,
      CASE WHEN ${userId}::uuid IS NOT NULL
           THEN (SELECT v.value FROM attribute_user_values v WHERE v.attribute_id = a.id AND v.user_id = ${userId}::uuid)
           ELSE (SELECT v.value FROM attribute_group_values v WHERE v.attribute_id = a.id AND v.group_id = ${groupId}::uuid) END AS own,
      (SELECT name FROM groups WHERE id = ${groupId}::uuid) AS own_name,
      coalesce((SELECT jsonb_agg(jsonb_build_object('g', g.name, 'v', v.value) ORDER BY v.rank NULLS LAST, g.name)
                  FROM attribute_group_values v JOIN groups g ON g.id = v.group_id
                  JOIN principal_groups(${holder.kind}, ${holder.id}::uuid) pg ON pg.group_id = g.id
                 WHERE v.attribute_id = a.id AND pg.group_id IS DISTINCT FROM ${groupId}::uuid), '[]'::jsonb) AS groups
      FROM attributes a
     WHERE a.org_id = ${where.org} AND (${names}::text[] IS NULL OR a.name = ANY(${names}::text[]))`;
}

/** Effective values of the rows of {@link effectiveRowsQuery}, ordered by attribute name. */
export function decideRows(rows: Row[], holder: Holder): EffectiveValue[] {
  return [...rows]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((r) => decide(r, holder.kind === "user" ? "user" : `group:${r.own_name}`));
}

/**
 * Names of the groups of organization `orgId` a user or group acts through
 * (itself for a group; transitively through nesting). `#(authorize)` names
 * groups, and names are unique only within an organization: a user belongs to
 * groups of other organizations too (any user can make one and a group of any
 * name in it), so only the package's organization's groups may count.
 */
export async function holderGroups(db: Db, holder: Holder, orgId: string): Promise<string[]> {
  const rows = await db`SELECT g.name FROM principal_groups(${holder.kind}, ${holder.id}::uuid) pg JOIN groups g ON g.id = pg.group_id
                         WHERE g.org_id = ${orgId}::uuid`;
  return rows.map((r) => r.name as string);
}
