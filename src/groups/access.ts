/**
 * Loading a group for a caller: 404 when the caller cannot see its
 * organization or the group does not exist, 403 when it may not manage it.
 * @module
 */
import type { AppContext } from "../context.ts";
import { ADMIN } from "../access/roles.ts";
import { effectiveRank } from "../access/store.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import type { Principal } from "../access/principal.ts";
import { organizationFor } from "../organizations/lookup.ts";
import { findGroup, type GroupRow } from "./store.ts";

/** Options of {@link groupFor}. */
export interface GroupForOptions {
  org: string;
  group: string;
  /** Whether the operation manages the group (group admins and organization admins). */
  manage?: boolean;
}

/** The group named in a path, checked for the caller. */
export async function groupFor(ctx: AppContext, principal: Principal, options: GroupForOptions): Promise<GroupRow> {
  const org = await organizationFor(ctx, principal, options.org);
  const group = await findGroup(ctx.sql, org.id, options.group);
  if (!group) throw new NotFoundError(`group '${options.group}' not found in organization '${options.org}'`);
  if (options.manage && (await effectiveRank(ctx.sql, principal, { kind: "group", id: group.id })) < ADMIN) {
    throw new ForbiddenError(`group '${options.group}': only its admins (members with status admin) and organization admins may manage it`);
  }
  return group;
}

/**
 * 403 unless the caller may rename `group`: organization admins only. A
 * group's name is what `#(authorize) groups=[...]` of a model trusts, so a
 * group admin who could rename the group onto a free name that a model
 * authorizes (a group not created yet, renamed or deleted) would let its
 * members into that source; group admins still change the description and
 * the members.
 */
export async function checkRename(ctx: AppContext, principal: Principal, group: GroupRow): Promise<void> {
  if ((await effectiveRank(ctx.sql, principal, { kind: "organization", id: group.orgId })) < ADMIN) {
    throw new ForbiddenError(`group '${group.name}': only organization admins rename a group (#(authorize) of models names groups); group admins may change its description and members`);
  }
}
