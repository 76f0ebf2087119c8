/**
 * Package access of a workspace: list, add and remove the packages a
 * workspace reaches (what `/mcp/{org}/workspace/{ws}` and the `workspace`
 * argument of queries and context searches are limited to).
 * @module
 */
import { Elysia, t } from "elysia";
import { required } from "../http/auth.ts";
import type { AppContext } from "../context.ts";
import { notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { workspaceRules } from "./route_rules.ts";
import { wsParams } from "../http/resource_params.ts";
import { addPackageAccess, listPackageAccess, removePackageAccess, } from "./store.ts";

const packageQuery = t.Object({ environmentName: name("environmentName"), packageName: name("packageName") });

/** Routes of `/organizations/{org}/workspaces/{ws}/packages`. */
export function workspacePackageRoutes(ctx: AppContext) {
  const tags = ["workspacePermissions"];
  return new Elysia({ prefix: "/organizations/:org/workspaces/:ws/packages" })
    .use(security(ctx))
    .use(workspaceRules(ctx))
    .get(
      "/",
      async ({ ws, query, principal, request, set }) => {
        const p = required(principal);
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listPackageAccess(ctx.sql, p, ws.id, { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows, { limit, key: (r) => `${r.environmentName}/${r.packageName}`, set });
      },
      {
        params: wsParams,
        wsAccess: "viewer",
        query: pageQuery,
        detail: {
          summary: "List the packages a workspace has access to (workspace viewer; only packages the caller can read)",
          description: "Entries `{ environmentName, packageName, createdAt }` ordered by `environmentName/packageName`.",
          tags,
        },
      },
    )
    .post(
      "/",
      async ({ share: { ws, pkg }, params, query, set }) => {
        const { access, created } = await ctx.sql.begin((tx) => addPackageAccess(tx, ws.id, pkg));
        set.status = created ? 201 : 200;
        return access;
      },
      {
        params: wsParams,
        query: packageQuery,
        shareAccess: "workspace-manager-package-modeler",
        detail: {
          summary: "Add package access to a workspace (`?environmentName=&packageName=`; 201, or 200 when it already had it)",
          description: "Needs the workspace manager role and the package admin or modeler role (the right to share the " +
            "package). Stored as the package permission `workspace:<ws>` viewer, also visible under the package's " +
            "permissions. Callers still need read access to the package itself to query it through the workspace.",
          tags,
        },
      },
    )
    .delete(
      "/",
      async ({ share: { ws, pkg }, params, query, set }) => {
        const gone = await ctx.sql.begin((tx) => removePackageAccess(tx, ws.id, pkg.id));
        if (!gone) throw notFound(`workspace '${params.ws}' has no access to package '${query.environmentName}/${query.packageName}'`);
        set.status = 204;
      },
      {
        params: wsParams,
        query: packageQuery,
        shareAccess: "workspace-manager-package-modeler",
        detail: {
          summary: "Remove package access from a workspace (workspace manager and package admin or modeler)",
          tags,
        },
      },
    );
}
