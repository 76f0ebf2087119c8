/**
 * What routes ask of the request's caller: {@link required} (401 without
 * credentials) and {@link requiredUser} (403 for API keys); and the hash that
 * API key secrets are stored as. Who the caller is, is found by the
 * authenticators the composition root hands in (src/http/security.ts).
 * @module
 */
import { forbidden, unauthenticated } from "./errors.ts";
import type { Principal, UserPrincipal } from "../access/principal.ts";

/** SHA-256 hex of a string (API key secrets are stored this way). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The principal, or a 401 when the request carried no credentials. */
export function required(principal: Principal | null, challenge?: string): Principal {
  if (!principal) throw unauthenticated("authentication required: send Authorization: Bearer <access token> or ApiKey <key>", challenge);
  return principal;
}

/** The user principal; API keys act as groups and may not call user-only operations. */
export function requiredUser(principal: Principal | null): UserPrincipal {
  const p = required(principal);
  if (p.kind !== "user") throw forbidden("this operation needs a user's access token; API keys act as their group and may not call it");
  return p;
}
