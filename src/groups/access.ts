/**
 * Loading a group for a caller: 404 when the caller cannot see its
 * organization or the group does not exist, 403 when it may not manage it.
 * @module
 */
import type { AppContext } from "../http/context.ts";
import { ADMIN, effectiveRank } from "../http/access.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import type { Principal } from "../http/principal.ts";
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
