/**
 * Documents of a workspace: list, create (workspace managers), get (viewer),
 * update (editor), delete (editor; workspace managers are editors of their
 * workspace's documents).
 * @module
 */
import { Elysia, t } from "elysia";
import { required } from "../http/auth.ts";
import type { AppContext } from "../context.ts";
import { ApiError, badRequest, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery, uuid } from "../http/params.ts";
import { security } from "../http/security.ts";
import { documentRules } from "./route_rules.ts";
import { workspaceRules } from "../workspaces/route_rules.ts";
import { wsParams } from "../http/resource_params.ts";
import { deleteDocument, documentView, insertDocument, listDocuments, updateDocument } from "./store.ts";

/** Largest document content, in UTF-8 bytes (1 MiB). */
const MAX_CONTENT_BYTES = 1024 * 1024;

const docParams = t.Object({ org: name("organizationName"), ws: name("workspaceName"), documentId: uuid("documentId") });
const docName = t.String({ minLength: 1, maxLength: 256, error: "name must be 1-256 characters" });
const content = t.String({ error: "content must be a string" });
const docBody = t.Object({ name: docName, content: t.Optional(content) });
const docPatch = t.Object({ name: t.Optional(docName), content: t.Optional(content) });

/** 413 when content is over {@link MAX_CONTENT_BYTES}. */
function checkContent(text: string | undefined): void {
  if (text === undefined) return;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_CONTENT_BYTES) {
    throw new ApiError("VALIDATION_ERROR", `content is ${bytes} bytes; the limit is ${MAX_CONTENT_BYTES} bytes (1 MiB). Split it into several documents`, { status: 413 });
  }
}

function cursorKey(cursor: string | undefined): [string, string] | undefined {
  const text = decodeCursor(cursor);
  if (text === undefined) return undefined;
  try {
    const key = JSON.parse(text);
    if (Array.isArray(key) && key.length === 2 && typeof key[0] === "string" && /^[0-9a-f-]{36}$/i.test(key[1])) return [key[0], key[1]];
  } catch { /* reported below */ }
  throw badRequest("cursor is not valid; use the value from the Link rel=next header");
}

/** Routes of `/organizations/{org}/workspaces/{ws}/documents`. */
export function documentRoutes(ctx: AppContext) {
  const tags = ["documents"];
  return new Elysia({ prefix: "/organizations/:org/workspaces/:ws/documents" })
    .use(security(ctx))
    .use(documentRules(ctx))
    .use(workspaceRules(ctx))
    .get(
      "/",
      async ({ wsOfDocs, query, principal, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listDocuments(ctx.sql, required(principal), wsOfDocs.id, { limit, after: cursorKey(query.cursor) });
        const page = pageResponse(request, rows, { limit, key: (r) => JSON.stringify([r.name, r.id]), set });
        return page.map(documentView);
      },
      {
        params: wsParams,
        query: pageQuery,
        documentsAccess: "viewer-of-any",
        detail: {
          summary: "List the documents of a workspace the caller can read (by name)",
          description: "Workspace viewers and managers see every document; a user with only a document permission sees that document.",
          tags,
        },
      },
    )
    .post(
      "/",
      async ({ ws, body, principal, set }) => {
        const p = required(principal);
        checkContent(body.content);
        const doc = await ctx.sql.begin((tx) =>
          insertDocument(tx, p, { workspaceId: ws.id, ...body, createdBy: p.kind === "user" ? p.userId : null })
        );
        set.status = 201;
        return documentView(doc);
      },
      {
        params: wsParams,
        body: docBody,
        wsAccess: "manager",
        detail: {
          summary: "Create a document in the workspace of the path (workspace manager)",
          description: "Workspace managers (and organization admins) create documents; workspace viewers and document editors " +
            "get 403. `content` is at most 1 MiB of UTF-8 (413 over it). The answer carries the new document's `id`.",
          tags,
        },
      },
    )
    .get(
      "/:documentId",
      ({ doc }) => documentView(doc),
      { params: docParams, docAccess: "viewer", detail: { summary: "Get a document with its content (document viewer)", tags } },
    )
    .patch(
      "/:documentId",
      async ({ doc, body, principal }) => {
        const p = required(principal);
        checkContent(body.content);
        return documentView(await ctx.sql.begin((tx) => updateDocument(tx, p, { id: doc.id, ...body })));
      },
      {
        params: docParams,
        body: docPatch,
        docAccess: "editor",
        detail: { summary: "Update a document (partial: `name`, `content`; document editor or workspace manager)", tags },
      },
    )
    .delete(
      "/:documentId",
      async ({ doc, params, set }) => {
        if (!(await ctx.sql.begin((tx) => deleteDocument(tx, doc.id)))) throw notFound(`document '${params.documentId}' not found`);
        set.status = 204;
      },
      {
        params: docParams,
        docAccess: "editor",
        detail: { summary: "Delete a document and its permissions (irreversible; document editor or workspace manager)", tags },
      },
    );
}

