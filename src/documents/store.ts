/**
 * SQL of documents: rows of a workspace with their content.
 * @module
 */
import type { Db } from "../db/database.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { roleName } from "../access/roles.ts";
import { ValidationError } from "../errors.ts";

/** A document as the API shows it. */
export interface DocumentView {
  id: string;
  name: string;
  content: string;
  /** userName of the creator (null when created with an API key or the user is gone). */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** The caller's role here: editor or viewer. */
  permission: string | null;
}

/** A document row with the caller's rank. */
export interface DocumentRow extends DocumentView {
  rank: number;
}

function toDocument(r: Record<string, unknown>): DocumentRow {
  const rank = Number(r.rank ?? 0);
  return {
    id: r.id as string,
    name: r.name as string,
    content: r.content as string,
    createdBy: (r.created_by_name as string | null) ?? null,
    createdAt: (r.created_at as Date).toISOString(),
    updatedAt: (r.updated_at as Date).toISOString(),
    permission: roleName("document", rank),
    rank,
  };
}

/** Strips the rank for responses. */
export function documentView(d: DocumentRow): DocumentView {
  const { rank: _rank, ...view } = d;
  return view;
}

/** A document by id with the caller's rank on it, or null. */
export async function documentById(db: Db, principal: Principal, id: string): Promise<DocumentRow | null> {
  const p = principalKey(principal);
  const [r] = await db`
    SELECT d.*, u.user_name AS created_by_name, effective_rank(${p.kind}, ${p.id}::uuid, 'document', d.id) AS rank
      FROM documents d LEFT JOIN users u ON u.id = d.created_by WHERE d.id = ${id}`;
  return r ? toDocument(r) : null;
}

/** Options of {@link listDocuments}. */
export interface ListDocumentOptions {
  limit: number;
  /** `[name, id]` of the last document of the previous page. */
  after?: [string, string];
}

/** The documents of a workspace the caller can read, by name (byte order) then id, keyset-paged (`limit + 1` rows). */
export async function listDocuments(db: Db, principal: Principal, workspaceId: string, options: ListDocumentOptions): Promise<DocumentRow[]> {
  const p = principalKey(principal);
  const [afterName, afterId] = options.after ?? ["", "00000000-0000-0000-0000-000000000000"];
  const rows = await db`
    SELECT * FROM (
      SELECT d.*, u.user_name AS created_by_name, effective_rank(${p.kind}, ${p.id}::uuid, 'document', d.id) AS rank
        FROM documents d LEFT JOIN users u ON u.id = d.created_by
       WHERE d.workspace_id = ${workspaceId} AND (d.name COLLATE "C", d.id) > (${afterName}::text COLLATE "C", ${afterId}::uuid)) x
     WHERE rank >= 1
     ORDER BY name COLLATE "C", id
     LIMIT ${options.limit + 1}`;
  return rows.map(toDocument);
}

/** Fields of a new document. */
export interface NewDocument {
  workspaceId: string;
  name: string;
  content?: string;
  /** Creating user (null for an API key). */
  createdBy: string | null;
}

/** Most documents of one workspace (a personal one included: every member has one). */
const MAX_DOCUMENTS = 10_000;
/** Most bytes of content of one workspace's documents together (each is at most 1 MiB). */
const MAX_WORKSPACE_BYTES = 256 * 1024 * 1024;

/**
 * 400 unless the workspace stays within {@link MAX_DOCUMENTS} and
 * {@link MAX_WORKSPACE_BYTES} with `change` applied (a new document, or a
 * document's content replaced). Serialized per workspace for the rest of the
 * transaction, so concurrent requests cannot add up past the bounds.
 */
async function checkWorkspaceBounds(db: Db, workspaceId: string, change: { content: string; replacing?: string }): Promise<void> {
  await db`SELECT pg_advisory_xact_lock(hashtext(${`documents:${workspaceId}`}))`;
  const [r] = await db<{ n: number; bytes: number; old: number }[]>`
    SELECT count(*)::int AS n, coalesce(sum(octet_length(content)), 0)::float8 AS bytes,
           coalesce(sum(octet_length(content)) FILTER (WHERE id = ${change.replacing ?? null}::uuid), 0)::float8 AS old
      FROM documents WHERE workspace_id = ${workspaceId}`;
  const adding = new TextEncoder().encode(change.content).length;
  if (change.replacing === undefined && r!.n >= MAX_DOCUMENTS) {
    throw new ValidationError(`the workspace holds ${r!.n} documents, the most one may (${MAX_DOCUMENTS} documents); delete some first`);
  }
  const after = r!.bytes - r!.old + adding;
  if (adding > r!.old && after > MAX_WORKSPACE_BYTES) {
    throw new ValidationError(`the workspace's documents would take ${after} bytes, more than the ${MAX_WORKSPACE_BYTES} bytes one workspace may hold; delete or shorten documents first`);
  }
}

/** Inserts a document; the caller (a workspace manager) is its editor through the workspace. 400 past the workspace's bounds. */
export async function insertDocument(db: Db, principal: Principal, doc: NewDocument): Promise<DocumentRow> {
  await checkWorkspaceBounds(db, doc.workspaceId, { content: doc.content ?? "" });
  const [r] = await db`
    INSERT INTO documents (workspace_id, name, content, created_by)
    VALUES (${doc.workspaceId}, ${doc.name}, ${doc.content ?? ""}, ${doc.createdBy}) RETURNING id`;
  return (await documentById(db, principal, r!.id as string))!;
}

/** Applies a partial update (only provided fields change); 400 when new content would pass the workspace's bounds. */
export async function updateDocument(db: Db, principal: Principal, patch: { id: string; name?: string; content?: string }): Promise<DocumentRow> {
  if (patch.content !== undefined) {
    const [d] = await db<{ workspaceId: string }[]>`SELECT workspace_id AS "workspaceId" FROM documents WHERE id = ${patch.id}`;
    if (d) await checkWorkspaceBounds(db, d.workspaceId, { content: patch.content, replacing: patch.id });
  }
  await db`
    UPDATE documents SET name = coalesce(${patch.name ?? null}::text, name),
                         content = coalesce(${patch.content ?? null}::text, content), updated_at = now()
     WHERE id = ${patch.id}`;
  return (await documentById(db, principal, patch.id))!;
}

/** Deletes a document (its grants go with it); returns whether it existed. */
export async function deleteDocument(db: Db, id: string): Promise<boolean> {
  const rows = await db`DELETE FROM documents WHERE id = ${id} RETURNING id`;
  return rows.length > 0;
}
