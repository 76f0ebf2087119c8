/**
 * The permission levels below the system: each names its path, path
 * parameters and resolver, and is served by the one factory of `routes.ts`
 * (`permissionLevelRoutes`).
 * Environment and package levels are served under `/environments/` and `/projects/`.
 * @module
 */
import { ADMIN, MODEL } from "../access/roles.ts";
import { name, uuid } from "../http/params.ts";
import type { PermissionLevel } from "./access.ts";

const org = name("organizationName");

/** A resource row located by a level's path: its id and its organization's. */
type Located = { id: string; org_id: string };

/** Organization permissions: `/organizations/{org}/permissions`. */
export const organizationLevel: PermissionLevel = {
  level: "organization",
  path: "/organizations/:org",
  params: { org },
  tag: "organizationPermissions",
  label: (p) => `organization '${p.org}'`,
  async resolve(db, p) {
    const [r] = await db<{ id: string }[]>`SELECT id FROM organizations WHERE name = ${p.org!}`;
    return r ? { id: r.id, orgId: r.id } : null;
  },
  principalKinds: ["user", "group"],
  manage: ADMIN,
};

/** Environment permissions under `{prefix}/{env}` (prefix: `/organizations/:org/environments` or `.../projects`). */
export function environmentLevel(prefix: string): PermissionLevel {
  return {
    level: "environment",
    path: `${prefix}/:env`,
    params: { org, env: name("environmentName") },
    tag: "environmentPermissions",
    label: (p) => `environment '${p.env}'`,
    async resolve(db, p) {
      const [r] = await db<Located[]>`SELECT e.id, e.org_id FROM environments e JOIN organizations o ON o.id = e.org_id
                            WHERE o.name = ${p.org!} AND e.name = ${p.env!}`;
      return r ? { id: r.id, orgId: r.org_id } : null;
    },
    principalKinds: ["user", "group"],
    manage: ADMIN,
  };
}

/** Package permissions under `{prefix}/{env}/packages/{pkg}`; principals may also be workspaces. */
export function packageLevel(prefix: string): PermissionLevel {
  return {
    level: "package",
    path: `${prefix}/:env/packages/:pkg`,
    params: { org, env: name("environmentName"), pkg: name("packageName") },
    tag: "packagePermissions",
    label: (p) => `package '${p.env}/${p.pkg}'`,
    async resolve(db, p) {
      const [r] = await db<Located[]>`SELECT p.id, e.org_id FROM packages p JOIN environments e ON e.id = p.env_id
                             JOIN organizations o ON o.id = e.org_id
                            WHERE o.name = ${p.org!} AND e.name = ${p.env!} AND p.name = ${p.pkg!}`;
      return r ? { id: r.id, orgId: r.org_id } : null;
    },
    principalKinds: ["user", "group", "workspace"],
    // package admins (and admins above) manage who may use a package; its modelers share it as viewer or modeler
    manage: ADMIN,
    share: MODEL,
  };
}

/** Workspace permissions: `/organizations/{org}/workspaces/{ws}/permissions`. */
export const workspaceLevel: PermissionLevel = {
  level: "workspace",
  path: "/organizations/:org/workspaces/:ws",
  params: { org, ws: name("workspaceName") },
  tag: "workspacePermissions",
  label: (p) => `workspace '${p.ws}'`,
  async resolve(db, p) {
    const [r] = await db<Located[]>`SELECT w.id, w.org_id FROM workspaces w JOIN organizations o ON o.id = w.org_id
                          WHERE o.name = ${p.org!} AND w.name = ${p.ws!}`;
    return r ? { id: r.id, orgId: r.org_id } : null;
  },
  principalKinds: ["user", "group"],
  manage: ADMIN,
};

/** Document permissions: `/organizations/{org}/workspaces/{ws}/documents/{documentId}/permissions`. */
export const documentLevel: PermissionLevel = {
  level: "document",
  path: "/organizations/:org/workspaces/:ws/documents/:documentId",
  params: { org, ws: name("workspaceName"), documentId: uuid("documentId") },
  tag: "documentPermissions",
  label: (p) => `document '${p.documentId}'`,
  async resolve(db, p) {
    const [r] = await db<Located[]>`SELECT d.id, w.org_id FROM documents d JOIN workspaces w ON w.id = d.workspace_id
                           JOIN organizations o ON o.id = w.org_id
                          WHERE o.name = ${p.org!} AND w.name = ${p.ws!} AND d.id = ${p.documentId!}::uuid`;
    return r ? { id: r.id, orgId: r.org_id } : null;
  },
  principalKinds: ["user", "group"],
  manage: ADMIN,
};
