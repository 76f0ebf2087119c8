/**
 * Invites: create one token (system admin), list (system admin), get by token
 * (any authenticated user: the token is the capability), revoke (system admin;
 * 409 for a consumed invite, which is kept for audit).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../http/context.ts";
import { isSystemAdmin } from "../http/access.ts";
import { required } from "../http/auth.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { pageQuery } from "../http/params.ts";
import type { Principal } from "../http/principal.ts";
import { security } from "../http/security.ts";
import { findInvite, INVITE_PATTERN, insertInvite, listInvites, revokeInvite } from "./store.ts";

const tokenParams = t.Object({
  token: t.String({ pattern: INVITE_PATTERN, error: "token must be two groups of five characters joined by '-', e.g. ABCDE-FGH23" }),
});
const tags = ["invites"];

function admin(principal: Principal | null, what: string): Principal {
  const p = required(principal);
  if (!isSystemAdmin(p)) throw forbidden(`only a system administrator can ${what}`);
  return p;
}

/** Routes of the invites group. */
export function inviteRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/invites" })
    .use(security(ctx))
    .post(
      "/",
      async ({ principal, set }) => {
        const p = admin(principal, "create invites");
        const invite = await insertInvite(ctx.sql, p.kind === "user" ? p.userId : null);
        set.status = 201;
        return invite;
      },
      {
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
      async ({ principal, query, request, set }) => {
        admin(principal, "list invites");
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listInvites(ctx.sql, { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows, { limit, key: (r) => r.token, set });
      },
      { query: pageQuery, detail: { summary: "List invites, ordered by token (system admin)", tags } },
    )
    .get(
      "/:token",
      async ({ params, principal }) => {
        required(principal);
        const invite = await findInvite(ctx.sql, params.token);
        if (!invite) throw notFound(`invite '${params.token}' not found`);
        return invite;
      },
      { params: tokenParams, detail: { summary: "Get an invite by its token (any authenticated user)", tags } },
    )
    .delete(
      "/:token",
      async ({ params, principal, set }) => {
        admin(principal, "revoke invites");
        const outcome = await ctx.sql.begin((tx) => revokeInvite(tx, params.token));
        if (outcome === "missing") throw notFound(`invite '${params.token}' not found`);
        if (outcome === "consumed") throw conflict(`invite '${params.token}' was already used; consumed invites are kept for audit`);
        set.status = 204;
      },
      { params: tokenParams, detail: { summary: "Revoke an unconsumed invite (409 when consumed)", tags } },
    );
}
