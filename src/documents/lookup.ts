/**
 * Looking up a document for an operation: 404 when invisible, 403 when the
 * rank is too low (domain errors).
 * @module
 */
import { effectiveRank } from "../access/store.ts";
import { READ, roleName } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import type { Principal } from "../access/principal.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import { documentLevel } from "../permissions/levels.ts";
import { workspaceLevel } from "../permissions/levels.ts";
import { documentById, listDocuments, type DocumentRow } from "./store.ts";

/** The document of a route when the caller may act on it: 404 when invisible, 403 when the rank is too low. */
export async function documentFor(
  ctx: AppContext,
  principal: Principal,
  params: { org: string; ws: string; documentId: string; need?: number; action?: string },
): Promise<DocumentRow> {
  const label = `document '${params.documentId}'`;
  const found = await documentLevel.resolve(ctx.sql, { org: params.org, ws: params.ws, documentId: params.documentId });
  const doc = found ? await documentById(ctx.sql, principal, found.id) : null;
  if (!doc || doc.rank < READ) throw new NotFoundError(`${label} not found in workspace '${params.ws}'`);
  const need = params.need ?? READ;
  if (doc.rank < need) {
    throw new ForbiddenError(`${label}: ${params.action ?? "this operation"} needs the ${roleName("document", need)} role; you are ${doc.permission}. ` +
      "Ask a workspace manager");
  }
  return doc;
}

/**
 * The workspace `{org}/{ws}` whose documents the caller lists: it sees the
 * workspace, or at least one of its documents (a document permission alone).
 * 404 otherwise, as for a workspace that does not exist.
 */
export async function documentsWorkspace(ctx: AppContext, principal: Principal, params: { org: string; ws: string }): Promise<{ id: string }> {
  const missing = `workspace '${params.ws}' not found in organization '${params.org}'`;
  const found = await workspaceLevel.resolve(ctx.sql, params);
  if (!found) throw new NotFoundError(missing);
  if ((await effectiveRank(ctx.sql, principal, { kind: "workspace", id: found.id })) >= READ) return { id: found.id };
  if ((await listDocuments(ctx.sql, principal, found.id, { limit: 0 })).length > 0) return { id: found.id };
  throw new NotFoundError(missing);
}
