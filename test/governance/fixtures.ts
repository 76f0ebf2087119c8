/**
 * Setup helpers of the governance tests: organizations through the API, and
 * rows of tables whose routes other issues build (environments, packages,
 * workspaces, documents) inserted directly.
 * @module
 */
import type { TestService } from "../helpers/service.ts";

/** Base path of the API. */
export const API = "/api/v0";

/** Creates an organization as the system admin; returns its id. */
export async function createOrg(s: TestService, name: string): Promise<string> {
  const r = await s.call("POST", `${API}/organizations`, { token: await s.adminToken(), body: { name } });
  if (r.status !== 201) throw new Error(`creating organization ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  const [row] = await s.service.db.sql`SELECT id FROM organizations WHERE name = ${name}`;
  return row!.id as string;
}

/** Grants an organization role to a user as the system admin. */
export async function grantOrg(s: TestService, org: string, userGroupId: string, permission: string): Promise<void> {
  const r = await s.call("POST", `${API}/organizations/${org}/permissions`, { token: await s.adminToken(), body: { userGroupId, permission } });
  if (r.status !== 201) throw new Error(`granting ${permission} on ${org} to ${userGroupId}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Inserts an environment row; returns its id. */
export async function insertEnv(s: TestService, orgId: string, name: string): Promise<string> {
  const [r] = await s.service.db.sql`INSERT INTO environments (org_id, name) VALUES (${orgId}, ${name}) RETURNING id`;
  return r!.id as string;
}

/** Inserts a package row; returns its id. */
export async function insertPackage(s: TestService, envId: string, name: string): Promise<string> {
  const [r] = await s.service.db.sql`INSERT INTO packages (env_id, name) VALUES (${envId}, ${name}) RETURNING id`;
  return r!.id as string;
}

/** Inserts a workspace row (personal when ownerUserName is given); returns its id. */
export async function insertWorkspace(s: TestService, orgId: string, name: string, ownerUserName?: string): Promise<string> {
  const [owner] = ownerUserName ? await s.service.db.sql`SELECT id FROM users WHERE user_name = ${ownerUserName}` : [];
  const [r] = await s.service.db.sql`INSERT INTO workspaces (org_id, name, owner_user_id) VALUES (${orgId}, ${name}, ${owner?.id ?? null}) RETURNING id`;
  return r!.id as string;
}

/** Inserts a document row; returns its id. */
export async function insertDocument(s: TestService, workspaceId: string, name: string): Promise<string> {
  const [r] = await s.service.db.sql`INSERT INTO documents (workspace_id, name) VALUES (${workspaceId}, ${name}) RETURNING id`;
  return r!.id as string;
}

/** Id of a user by name. */
export async function userId(s: TestService, userName: string): Promise<string> {
  const [r] = await s.service.db.sql`SELECT id FROM users WHERE user_name = ${userName}`;
  return r!.id as string;
}
