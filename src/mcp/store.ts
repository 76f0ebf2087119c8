/**
 * SQL the MCP endpoints need.
 * @module
 */
import type { Db } from "../db/database.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { READ } from "../access/roles.ts";

/** A workspace row: id and name. */
export interface WorkspaceRef {
  id: string;
  name: string;
}

/** The workspace of that name in an organization when the caller sees it (viewer or more), or `null`. */
export async function visibleWorkspace(db: Db, principal: Principal, where: { orgId: string; name: string }): Promise<WorkspaceRef | null> {
  const p = principalKey(principal);
  const [row] = await db<WorkspaceRef[]>`
    SELECT w.id, w.name FROM workspaces w
     WHERE w.org_id = ${where.orgId} AND w.name = ${where.name}
       AND effective_rank(${p.kind}, ${p.id}::uuid, 'workspace', w.id) >= ${READ}`;
  return row ?? null;
}
