/**
 * SQL the MCP endpoints need.
 * @module
 */
import type { Db } from "../db/database.ts";

/** A workspace row: id and name. */
export interface WorkspaceRef {
  id: string;
  name: string;
}

/** The workspace of that name in an organization, or `null`. */
export async function findWorkspace(db: Db, orgId: string, name: string): Promise<WorkspaceRef | null> {
  const [row] = await db`SELECT id, name FROM workspaces WHERE org_id = ${orgId} AND name = ${name}`;
  return row ? { id: row.id as string, name: row.name as string } : null;
}
