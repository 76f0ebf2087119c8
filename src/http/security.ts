/**
 * The Elysia plugin every authenticated route group uses: resolves the caller
 * (`principal`, `null` when anonymous) with the authenticators of the app
 * context and applies the rate limit to it.
 * @module
 */
import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import type { AppContext, AuthenticateOptions, TokenSigner } from "../context.ts";
import { requestMeta } from "./request_meta.ts";
import { type Principal, principalLabel, rateLimitKey } from "../access/principal.ts";

/**
 * The caller of a request's credentials, asking the app's authenticators in
 * order (the composition root lists them: an in-package app's token first,
 * then access tokens and API keys); `null` without credentials. Throws the
 * 401/403 of a credential that does not (or no longer does) authenticate, so
 * a long-lived response (an event stream) asks again to learn whether its
 * credential still stands: deleted or expired API keys, access tokens revoked or expired.
 */
export async function requestPrincipal(ctx: AppContext, request: Request, options: AuthenticateOptions): Promise<Principal | null> {
  for (const authenticator of ctx.authenticators) {
    const principal = await authenticator(request, options);
    if (principal) return principal;
  }
  return null;
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
