/**
 * The Elysia plugin every authenticated route group uses: resolves the caller
 * (`principal`, `null` when anonymous) and applies the rate limit to it.
 * @module
 */
import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import { authenticate, type TokenSigner, externalIdp } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { requestMeta } from "./context.ts";
import { principalLabel, rateLimitKey } from "../access/principal.ts";
import { appCredentialPrincipal } from "../apps/scope.ts";

/** Elysia plugin deriving `principal` and `signer` for the routes that use it. */
export function security(ctx: AppContext) {
  const idp = externalIdp(ctx.config);
  return new Elysia({ name: "security", seed: ctx.id })
    .use(jwt({ name: "jwt", secret: ctx.jwtSecret, alg: "HS256", exp: `${ctx.config.jwtTtlSeconds}s` }))
    .derive({ as: "scoped" }, async ({ request, jwt: signer, route }) => {
      const meta = requestMeta(request);
      if (meta) meta.route = route;
      // an in-package app's token: only its package's models, queries and events (403 elsewhere);
      // an OAuth access token at the app-token endpoint (only there: see apps/scope.ts)
      const principal = await appCredentialPrincipal(ctx, request) ?? await authenticate(
          { sql: ctx.sql, signer: signer as TokenSigner, idp, failures: ctx.identity.authFailures, address: meta?.address, since: meta?.start ?? performance.now() },
          request,
        );
      const key = principal ? rateLimitKey(principal) : `address:${meta?.address ?? "unknown"}`;
      if (meta && principal) meta.principal = principalLabel(principal);
      ctx.limiter.take(key);
      return { principal, signer: signer as TokenSigner };
    });
}
