/**
 * Bookmarks of the current user in an organization: create, list
 * (`?bookmarkType=`), get and delete by type and object id.
 * @module
 */
import { Elysia, t } from "elysia";
import { requiredUser } from "../http/auth.ts";
import type { AppContext } from "../context.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, orgParams, pageQuery } from "../http/params.ts";
import type { Principal } from "../access/principal.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { security } from "../http/security.ts";
import { workspaceFor } from "../workspaces/lookup.ts";
import { BOOKMARK_TYPES, deleteBookmark, findBookmark, insertBookmark, listBookmarks, type BookmarkOwner } from "./store.ts";

const bookmarkType = t.Union(BOOKMARK_TYPES.map((type) => t.Literal(type)), {
  error: `bookmarkType must be one of ${BOOKMARK_TYPES.join(", ")}`,
});
const objectId = t.String({ minLength: 1, maxLength: 512, error: "objectId must be 1-512 characters" });
const bookmarkBody = t.Object({
  bookmarkType,
  objectId,
  name: t.Optional(t.String({ maxLength: 256, error: "name must be at most 256 characters" })),
});
const oneParams = t.Object({ org: name("organizationName"), bookmarkType, objectId });
const listQuery = t.Object({ ...pageQuery.properties, bookmarkType: t.Optional(bookmarkType) });

/** The caller's bookmark scope: the organization resolved by `orgAccess: "user-member"` (a user, API keys: 403, member of it, 404 otherwise). */
function ownerOf(org: { id: string }, principal: Principal | null): BookmarkOwner {
  return { orgId: org.id, userId: requiredUser(principal).userId };
}

function cursorKey(cursor: string | undefined): [string, string] | undefined {
  const text = decodeCursor(cursor);
  if (text === undefined) return undefined;
  try {
    const key = JSON.parse(text);
    if (Array.isArray(key) && key.length === 2 && typeof key[0] === "string" && typeof key[1] === "string") return [key[0], key[1]];
  } catch { /* reported below */ }
  throw badRequest("cursor is not valid; use the value from the Link rel=next header");
}

/** Routes of `/organizations/{org}/bookmarks`. */
export function bookmarkRoutes(ctx: AppContext) {
  const tags = ["bookmarks"];
  return new Elysia({ prefix: "/organizations/:org/bookmarks" })
    .use(security(ctx))
    .use(organizationRules(ctx))
    .post(
      "/",
      async ({ org, params, body, principal, set }) => {
        const owner = ownerOf(org, principal);
        if (body.bookmarkType === "workspace") await workspaceFor(ctx, requiredUser(principal), { org: params.org, ws: body.objectId });
        const created = await ctx.sql.begin((tx) => insertBookmark(tx, owner, body));
        if (!created) {
          throw conflict(`you already have a ${body.bookmarkType} bookmark for '${body.objectId}'; delete it first to replace it`);
        }
        set.status = 201;
        return created;
      },
      {
        params: orgParams,
        orgAccess: "user-member",
        body: bookmarkBody,
        detail: {
          summary: "Bookmark a workspace, model or chat for the current user (409 when it exists)",
          description: "`objectId` is the workspace name for `workspace` (it must be a workspace you can see; deleting the " +
            "workspace deletes its bookmarks), and an opaque id chosen by the client for `model` (e.g. " +
            "`env/package/models/file.malloy`) and `chat`. Bookmarks are private to their user. Needs a user's access " +
            "token (API keys: 403) and membership of the organization.",
          tags,
        },
      },
    )
    .get(
      "/",
      async ({ org, query, principal, request, set }) => {
        const owner = ownerOf(org, principal);
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listBookmarks(ctx.sql, owner, { bookmarkType: query.bookmarkType, limit, after: cursorKey(query.cursor) });
        return pageResponse(request, rows, { limit, key: (r) => JSON.stringify([r.bookmarkType, r.objectId]), set });
      },
      {
        params: orgParams,
        orgAccess: "user-member",
        query: listQuery,
        detail: { summary: "List the current user's bookmarks (`?bookmarkType=` filters), by type then object id", tags },
      },
    )
    .get(
      "/:bookmarkType/:objectId",
      async ({ org, params, principal }) => {
        const owner = ownerOf(org, principal);
        const found = await findBookmark(ctx.sql, owner, params);
        if (!found) throw notFound(`you have no ${params.bookmarkType} bookmark for '${params.objectId}'`);
        return found;
      },
      { params: oneParams, orgAccess: "user-member", detail: { summary: "Get one of the current user's bookmarks by type and object id", tags } },
    )
    .delete(
      "/:bookmarkType/:objectId",
      async ({ org, params, principal, set }) => {
        const owner = ownerOf(org, principal);
        const gone = await ctx.sql.begin((tx) => deleteBookmark(tx, owner, params));
        if (!gone) throw notFound(`you have no ${params.bookmarkType} bookmark for '${params.objectId}'`);
        set.status = 204;
      },
      { params: oneParams, orgAccess: "user-member", detail: { summary: "Delete one of the current user's bookmarks (cannot be undone)", tags } },
    );
}
