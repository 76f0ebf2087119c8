/**
 * The Elysia plugin every authenticated route group uses: resolves the caller
 * (`principal`, `null` when anonymous) and applies the rate limit to it.
 * @module
 */
import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import { type AuthDeps, authenticate, type TokenSigner, externalIdp } from "./auth.ts";
import type { AppContext } from "../context.ts";
import { requestMeta } from "./request_meta.ts";
import { type Principal, principalLabel, rateLimitKey } from "../access/principal.ts";
import { appCredentialPrincipal } from "../apps/scope.ts";

/** Options of {@link requestPrincipal}. */
export interface RequestPrincipalOptions {
  signer: TokenSigner;
  /** Counts failed credentials of the client address (the request's first check; a re-check counts nothing). */
  failures?: AuthDeps["failures"];
  address?: string;
  /** `performance.now()` from which cached decisions must be fresh (see auth_cache.ts). */
  since: number;
}

/**
 * The caller of a request's credentials: an in-package app's token (only its
 * package's models, queries and events; 403 elsewhere), an OAuth access token
 * at the app-token endpoint (only there: see apps/scope.ts), else an access
 * token or API key; `null` without `Authorization`. Throws the 401/403 of a
 * credential that does not (or no longer does) authenticate, so a long-lived
 * response (an event stream) asks again to learn whether its credential
 * still stands: deleted or expired API keys, access tokens revoked or expired.
 */
export async function requestPrincipal(ctx: AppContext, request: Request, options: RequestPrincipalOptions): Promise<Principal | null> {
  const idp = externalIdp(ctx.config);
  return await appCredentialPrincipal(ctx, request) ?? await authenticate({ sql: ctx.sql, idp, ...options }, request);
}

/** Elysia plugin deriving `principal` and `signer` for the routes that use it. */
export function security(ctx: AppContext) {
  return new Elysia({ name: "security", seed: ctx.id })
    .use(jwt({ name: "jwt", secret: ctx.jwtSecret, alg: "HS256", exp: `${ctx.config.jwtTtlSeconds}s` }))
    .derive({ as: "scoped" }, async ({ request, jwt: signer, route }) => {
      const meta = requestMeta(request);
      if (meta) meta.route = route;
      const principal = await requestPrincipal(ctx, request, {
        signer: signer as TokenSigner,
        failures: ctx.identity.authFailures,
        address: meta?.address,
        since: meta?.start ?? performance.now(),
      });
      const key = principal ? rateLimitKey(principal) : `address:${meta?.address ?? "unknown"}`;
      if (meta && principal) meta.principal = principalLabel(principal);
      ctx.limiter.take(key);
      return { principal, signer: signer as TokenSigner };
    });
}
