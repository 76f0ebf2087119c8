/**
 * Workspaces: list (`?writable=true`), create, get or create the caller's
 * personal workspace, get, update (partial), delete (with its documents).
 * @module
 */
import { Elysia, t } from "elysia";
import { ADMIN, READ } from "../access/roles.ts";
import { required, requiredUser } from "../http/auth.ts";
import type { AppContext } from "../context.ts";
import { badRequest, conflict } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, orgParams, pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { workspaceRules } from "./route_rules.ts";
import {
  deleteWorkspace,
  insertWorkspace,
  listWorkspaces,
  PERSONAL_PREFIX,
  personalWorkspace,
  updateWorkspace,
  workspaceView,
} from "./store.ts";

import { wsParams } from "../http/resource_params.ts";

const description = t.String({ maxLength: 4000, error: "description must be at most 4000 characters" });
const wsBody = t.Object({ name: name("name"), description: t.Optional(description) });
const wsPatch = t.Object({ name: t.Optional(t.String({ maxLength: 128 })), description: t.Optional(description) });
const listQuery = t.Object({
  ...pageQuery.properties,
  writable: t.Optional(t.BooleanString({ error: "writable must be true or false" })),
});

function checkSharedName(wsName: string): void {
  if (wsName === "personal" || wsName.startsWith(PERSONAL_PREFIX)) {
    throw badRequest(`workspace name '${wsName}' is reserved for personal workspaces; pick a name that is not 'personal' and does not start with '${PERSONAL_PREFIX}'`);
  }
}

/** Routes of the workspaces group. */
export function workspaceRoutes(ctx: AppContext) {
  const tags = ["workspaces"];
  return new Elysia({ prefix: "/organizations/:org/workspaces" })
    .use(security(ctx))
    .use(organizationRules(ctx))
    .use(workspaceRules(ctx))
    .get(
      "/",
      async ({ org, query, principal, request, set }) => {
        const p = required(principal);
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listWorkspaces(ctx.sql, p, {
          orgId: org.id,
          need: query.writable ? ADMIN : READ,
          limit,
          after: decodeCursor(query.cursor),
        });
        return pageResponse(request, rows, { limit, key: (r) => r.name, set }).map(workspaceView);
      },
      {
        params: orgParams,
        orgAccess: "member",
        query: listQuery,
        detail: {
          summary: "List the workspaces of an organization the caller can read (`?writable=true`: only those it manages)",
          description: "Shared workspaces the caller is manager or viewer of (organization admins see all shared ones) and the " +
            "caller's own personal workspace; personal workspaces of others never appear. Ordered by name, paged with " +
            "`?limit=&cursor=`.",
          tags,
        },
      },
    )
    .post(
      "/",
      async ({ org, params, body, principal, set }) => {
        const p = required(principal);
        checkSharedName(body.name);
        const ws = await ctx.sql.begin(async (tx) => {
          const [dup] = await tx`SELECT 1 FROM workspaces WHERE org_id = ${org.id} AND name = ${body.name}`;
          if (dup) throw conflict(`workspace '${body.name}' already exists in organization '${params.org}'; choose another name`);
          return await insertWorkspace(tx, p, { orgId: org.id, ...body });
        });
        set.status = 201;
        return workspaceView(ws);
      },
      {
        params: orgParams,
        orgAccess: "workspace-creator",
        body: wsBody,
        detail: {
          summary: "Create a shared workspace (organization admin or modeler; the creator becomes its manager)",
          description: "The creator (a user, or the group of an API key) gets a manager grant. Names `personal` and " +
            "`personal-*` are reserved for personal workspaces (400). An existing name is 409.",
          tags,
        },
      },
    )
    .post(
      "/personal",
      async ({ org, principal, set }) => {
        const user = requiredUser(principal);
        const outcome = await ctx.sql.begin((tx) => personalWorkspace(tx, user, org.id));
        if (!outcome.workspace) {
          throw conflict(`the name '${PERSONAL_PREFIX}${user.userName}' is taken by a shared workspace; an organization admin must rename or delete it first`);
        }
        set.status = outcome.created ? 201 : 200;
        return workspaceView(outcome.workspace);
      },
      {
        params: orgParams,
        orgAccess: "user-member",
        detail: {
          summary: "Get or create the caller's personal workspace (200 when it exists, 201 when created)",
          description: "A personal workspace (`personal-<userName>`, `personal: true`) is private to its owner: nobody else, " +
            "organization admins included, can see it (404). Needs a user's access token (API keys: 403) and membership of " +
            "the organization.",
          tags,
        },
      },
    )
    .get(
      "/:ws",
      ({ ws }) => workspaceView(ws),
      { params: wsParams, wsAccess: "viewer", detail: { summary: "Get a workspace with the caller's permission (viewer)", tags } },
    )
    .patch(
      "/:ws",
      async ({ ws, body }) => {
        if (body.name !== undefined && body.name !== ws.name) {
          throw badRequest("a workspace cannot be renamed (its name is its address in MCP URLs and package grants); create a new workspace instead");
        }
        return workspaceView(await updateWorkspace(ctx.sql, ws, body));
      },
      {
        params: wsParams,
        wsAccess: "manager",
        body: wsPatch,
        detail: { summary: "Update a workspace (partial: only `description` changes; manager)", tags },
      },
    )
    .delete(
      "/:ws",
      async ({ ws, set }) => {
        await ctx.sql.begin((tx) => deleteWorkspace(tx, ws));
        set.status = 204;
      },
      {
        params: wsParams,
        wsAccess: "manager",
        detail: {
          summary: "Delete a workspace with its documents, permissions and package access (irreversible; manager or organization admin)",
          tags,
        },
      },
    );
}
