/**
 * Access rules of the document routes (see src/http/route_access.ts):
 *
 * - `docAccess: "viewer" | "editor"` resolves `doc`
 * - `documentsAccess: "viewer-of-any"` resolves `wsOfDocs` (the workspace, seen directly or through one of its documents)
 * @module
 */
import { Elysia } from "elysia";
import { ADMIN, READ } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { accessRule } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { documentFor, documentsWorkspace } from "./lookup.ts";

/** Document roles a route can need. */
export type DocRule = "viewer" | "editor";

const RANK: Record<DocRule, number> = { viewer: READ, editor: ADMIN };

/** What a method does to the document, for 403 messages. */
const ACTIONS: Record<string, string> = { PATCH: "updating it", PUT: "updating it", DELETE: "deleting it" };

/** Elysia plugin adding `docAccess` and `documentsAccess` (see the module comment). */
export function documentRules(ctx: AppContext) {
  return new Elysia({ name: "document-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      /** The document `{org}/{ws}/{documentId}` when the caller holds `need` on it. */
      docAccess: accessRule((need: DocRule) => `document:${need}`, async ({ principal, params, request }, need) => ({
        doc: await documentFor(ctx, required(principal ?? null), {
          org: params.org!, ws: params.ws!, documentId: params.documentId!, need: RANK[need], action: ACTIONS[request.method],
        }),
      })),
      /** The workspace `{org}/{ws}` of a document listing: the caller sees the workspace or one of its documents. */
      documentsAccess: accessRule((need: "viewer-of-any") => `documents:${need}`, async ({ principal, params }) => ({
        wsOfDocs: await documentsWorkspace(ctx, required(principal ?? null), { org: params.org!, ws: params.ws! }),
      })),
    });
}
