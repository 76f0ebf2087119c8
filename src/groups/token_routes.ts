/**
 * Group tokens (API keys acting as the group): create (the only response with
 * the secret), list (no secrets), delete (invalid at once).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { sha256Hex } from "../http/auth.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { groupParams, name } from "../http/params.ts";
import { groupRules } from "./route_rules.ts";
import { security } from "../http/security.ts";
import { deleteToken, insertToken, listTokens } from "./store.ts";

/** A new secret: 32 random bytes, base64url without padding (43 characters). */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Expiry of a new token: `API_KEY_DEFAULT_DAYS` (default 365) when omitted, and
 * never later than `API_KEY_MAX_DAYS` (default 365) from now.
 */
function expiry(text: string | undefined, config: { apiKeyDefaultDays: number; apiKeyMaxDays: number }): Date {
  const maxDays = config.apiKeyMaxDays;
  if (text === undefined) return new Date(Date.now() + Math.min(config.apiKeyDefaultDays, maxDays) * DAY_MS);
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw badRequest(`expiresAt '${text}' is not an ISO 8601 date-time, e.g. 2030-01-01T00:00:00Z`);
  if (d.getTime() <= Date.now()) throw badRequest(`expiresAt '${text}' is in the past; give a future date-time or omit it (${config.apiKeyDefaultDays} days)`);
  if (d.getTime() > Date.now() + maxDays * DAY_MS) {
    throw badRequest(`expiresAt '${text}' is more than ${maxDays} days away, the longest an API key may live here (API_KEY_MAX_DAYS)`);
  }
  return d;
}

/** A field given in the query or the JSON body (400 when both give different values). */
function oneOf(field: string, inQuery: string | undefined, inBody: string | undefined): string | undefined {
  if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) {
    throw badRequest(`${field} is given twice with different values (query '${inQuery}', body '${inBody}'); give it once`);
  }
  return inQuery ?? inBody;
}

const tags = ["groups"];

/** Routes of group tokens. */
export function groupTokenRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations/:org/groups/:group/tokens" })
    .use(security(ctx))
    .use(groupRules(ctx))
    .post(
      "/",
      async ({ group, query, body, set }) => {
        const unknown = Object.keys(body ?? {}).filter((k) => k !== "name" && k !== "expiresAt");
        if (unknown.length > 0) throw badRequest(`the body may hold name and expiresAt (ISO 8601) only, not ${unknown.join(", ")}`);
        const tokenName = oneOf("name", query.name, body?.name);
        if (tokenName === undefined) throw badRequest("name is required: give the token a name with ?name= (or a JSON body { \"name\": ... })");
        const expiresAt = expiry(oneOf("expiresAt", query.expiresAt, body?.expiresAt), ctx.config);
        const secret = newSecret();
        const token = await ctx.sql.begin(async (tx) => {
          const [dup] = await tx`SELECT 1 FROM group_tokens WHERE group_id = ${group.id} AND name = ${tokenName}`;
          if (dup) throw conflict(`group '${group.name}' already has a token named '${tokenName}'; delete it or pick another name`);
          return await insertToken(tx, group, { name: tokenName, secretHash: await sha256Hex(secret), expiresAt });
        });
        set.status = 201;
        return { ...token, secret };
      },
      {
        params: groupParams,
        groupAccess: "admin",
        query: t.Object({
          name: t.Optional(name("name")),
          expiresAt: t.Optional(t.String({ maxLength: 64, error: "expiresAt must be an ISO 8601 date-time" })),
        }),
        body: t.Optional(t.Object({
          name: t.Optional(name("name")),
          expiresAt: t.Optional(t.String({ maxLength: 64, error: "expiresAt must be an ISO 8601 date-time" })),
        }, { additionalProperties: true, description: "The query's fields, in a JSON body; any other field is 400" })),
        detail: {
          summary: "Create a group token (API key); the response is the only one that carries its secret",
          description: "`?name=` (required) and `?expiresAt=` (ISO 8601; default one year, `API_KEY_DEFAULT_DAYS`; at most `API_KEY_MAX_DAYS`, 365 by default), " +
            "or the same fields in a JSON body `{ name, expiresAt }` (honoured alike; a field given in both places with different values, or any other " +
            "body field, is 400). Send the secret as " +
            "`Authorization: ApiKey <secret>`; it acts with the group's permissions. Group admins and organization admins only.",
          tags,
        },
      },
    )
    .get(
      "/",
      async ({ group }) => {
        return await listTokens(ctx.sql, group);
      },
      { params: groupParams, groupAccess: "admin", detail: { summary: "List a group's tokens (never the secrets)", tags } },
    )
    .delete(
      "/:tokenName",
      async ({ group, params, set }) => {
        const gone = await ctx.sql.begin((tx) => deleteToken(tx, group.id, params.tokenName));
        if (!gone) throw notFound(`group '${group.name}' has no token named '${params.tokenName}'`);
        set.status = 204;
      },
      {
        params: t.Object({ org: name("organizationName"), group: name("groupName"), tokenName: name("tokenName") }),
        groupAccess: "admin",
        detail: { summary: "Delete a group token (irreversible; it stops working on the next request)", tags },
      },
    );
}

