/**
 * Invites: create one token (system admin), list (system admin), get by token
 * (any authenticated user: the token is the capability), revoke (system admin;
 * 409 for a consumed invite, which is kept for audit).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { conflict, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { pageQuery } from "../http/params.ts";
import { routeAccess } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { NotFoundError } from "../errors.ts";
import { guardedInvite } from "./redeem.ts";
import { findInvite, INVITE_PATTERN, insertInvite, listInvites, revokeInvite } from "./store.ts";

const tokenParams = t.Object({
  token: t.String({ pattern: INVITE_PATTERN, error: "token must be two groups of five characters joined by '-', e.g. ABCDE-FGH23" }),
});
const tags = ["invites"];

/** Routes of the invites group. */
export function inviteRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/invites" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .post(
      "/",
      async ({ principal, set }) => {
        const p = required(principal);
        const invite = await insertInvite(ctx.sql, p.kind === "user" ? p.userId : null);
        set.status = 201;
        return invite;
      },
      {
        access: "system:admin",
        detail: {
          summary: "Create one invite token (system admin)",
          description: "One token per call. The holder redeems it with `POST /organizations` and header `X-Invite-Token` " +
            "while logged in (Bearer): it creates one organization and becomes its admin.",
          tags,
        },
      },
    )
    .get(
      "/",
      async ({ query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listInvites(ctx.sql, { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows, { limit, key: (r) => r.token, set });
      },
      { query: pageQuery, access: "system:admin", detail: { summary: "List invites, ordered by token (system admin)", tags } },
    )
    .get(
      "/:token",
      async ({ params, request }) => {
        // the token is the capability: an unknown one is a failed guess of the client address (429 past the limit)
        return await guardedInvite(ctx, request, params.token, async () => {
          const invite = await findInvite(ctx.sql, params.token);
          if (!invite) throw new NotFoundError(`invite '${params.token}' not found`);
          return invite;
        });
      },
      { params: tokenParams, access: "authenticated", detail: { summary: "Get an invite by its token (any authenticated user)", tags } },
    )
    .delete(
      "/:token",
      async ({ params, set }) => {
        const outcome = await ctx.sql.begin((tx) => revokeInvite(tx, params.token));
        if (outcome === "missing") throw notFound(`invite '${params.token}' not found`);
        if (outcome === "consumed") throw conflict(`invite '${params.token}' was already used; consumed invites are kept for audit`);
        set.status = 204;
      },
      { params: tokenParams, access: "system:admin", detail: { summary: "Revoke an unconsumed invite (409 when consumed)", tags } },
    );
}
