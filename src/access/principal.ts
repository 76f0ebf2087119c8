/**
 * Who is calling: a user (access token) or a group (API key), pure helpers on
 * a caller, and a parsed reference to a grantee (`user:bob`). No imports:
 * stores, domain modules and the HTTP layer share these types.
 * @module
 */

/** A caller authenticated with an access token. */
export interface UserPrincipal {
  kind: "user";
  userId: string;
  userName: string;
  systemAdmin: boolean;
  /** True when the caller presented an OAuth access token (an MCP client acting for the user). */
  oauth?: boolean;
  /** The OAuth grant of that token, when known (credentials got with it end with the grant). */
  oauthGrant?: string;
  /**
   * The user's `token_version` when its credential was verified (it is the
   * current one: a change ends the credential); browser credentials signed for
   * this caller carry it without reading the user row again.
   */
  tokenVersion?: number;
}

/** A caller authenticated with a group token (API key): acts as the group. */
export interface GroupPrincipal {
  kind: "group";
  groupId: string;
  groupName: string;
  orgId: string;
  /** Name of the group's organization (read with the token, on every request). */
  orgName: string;
  tokenId: string;
}

/** An authenticated caller. */
export type Principal = UserPrincipal | GroupPrincipal;

/** Text for logs and rate limits: `user:<name>` or `group:<name>`. */
export function principalLabel(principal: Principal): string {
  return principal.kind === "user" ? `user:${principal.userName}` : `group:${principal.groupName}`;
}

/**
 * Key of a principal's rate-limit bucket: `user:<user id>` or
 * `group:<organization id>:<group id>`, so that groups of the same name in two
 * organizations never share a bucket, and a renamed principal keeps its own.
 */
export function rateLimitKey(principal: Principal): string {
  return principal.kind === "user" ? `user:${principal.userId}` : `group:${principal.orgId}:${principal.groupId}`;
}

/** The principal's kind and id as the SQL function `effective_rank` expects them. */
export function principalKey(principal: Principal): { kind: "user" | "group"; id: string } {
  return principal.kind === "user"
    ? { kind: "user", id: principal.userId }
    : { kind: "group", id: principal.groupId };
}

/** Whether the principal is a system administrator. */
export function isSystemAdmin(principal: Principal): boolean {
  return principal.kind === "user" && principal.systemAdmin;
}

/** A parsed `kind:name` principal reference (a grantee or group member named in a request). */
export interface PrincipalRef {
  kind: "user" | "group" | "workspace";
  name: string;
}
