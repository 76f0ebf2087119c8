/**
 * SQL of bookmarks: each user's pointers, within an organization, to
 * workspaces, models and chat conversations by type and object id.
 * @module
 */
import type { Db } from "../db/database.ts";
import { ValidationError } from "../errors.ts";

/** Kinds of object a bookmark points at. */
export const BOOKMARK_TYPES = ["workspace", "model", "chat"] as const;

/** A kind of object a bookmark points at. */
export type BookmarkType = (typeof BOOKMARK_TYPES)[number];

/** A bookmark as the API shows it. */
export interface BookmarkView {
  bookmarkType: BookmarkType;
  objectId: string;
  name: string;
  createdAt: string;
}

/** Whose bookmarks: one user in one organization. */
export interface BookmarkOwner {
  orgId: string;
  userId: string;
}

function toBookmark(r: Record<string, unknown>): BookmarkView {
  return {
    bookmarkType: r.bookmark_type as BookmarkType,
    objectId: r.object_id as string,
    name: r.name as string,
    createdAt: (r.created_at as Date).toISOString(),
  };
}

/** Most bookmarks of one user in one organization. */
const MAX_BOOKMARKS = 1000;

/**
 * Inserts a bookmark; null when the owner already has one for that type and
 * object; 400 when the owner has {@link MAX_BOOKMARKS} already (counted under
 * a lock of the owner for the rest of the transaction).
 */
export async function insertBookmark(db: Db, owner: BookmarkOwner, bookmark: { bookmarkType: BookmarkType; objectId: string; name?: string }): Promise<BookmarkView | null> {
  await db`SELECT pg_advisory_xact_lock(hashtext(${`bookmarks:${owner.orgId}:${owner.userId}`}))`;
  const [count] = await db<{ n: number }[]>`SELECT count(*)::int AS n FROM bookmarks WHERE org_id = ${owner.orgId} AND user_id = ${owner.userId}`;
  if (count!.n >= MAX_BOOKMARKS) {
    throw new ValidationError(`you have ${count!.n} bookmarks in this organization, the most one may (${MAX_BOOKMARKS} bookmarks); delete some first`);
  }
  const [r] = await db`
    INSERT INTO bookmarks (org_id, user_id, bookmark_type, object_id, name)
    VALUES (${owner.orgId}, ${owner.userId}, ${bookmark.bookmarkType}, ${bookmark.objectId}, ${bookmark.name ?? ""})
    ON CONFLICT DO NOTHING RETURNING *`;
  return r ? toBookmark(r) : null;
}

/** Options of {@link listBookmarks}. */
export interface ListBookmarkOptions {
  bookmarkType?: BookmarkType;
  limit: number;
  /** `[bookmarkType, objectId]` of the last bookmark of the previous page. */
  after?: [string, string];
}

/** The owner's bookmarks by type then object id, keyset-paged (`limit + 1` rows). */
export async function listBookmarks(db: Db, owner: BookmarkOwner, options: ListBookmarkOptions): Promise<BookmarkView[]> {
  const [afterType, afterId] = options.after ?? ["", ""];
  const rows = await db`
    SELECT * FROM bookmarks
     WHERE org_id = ${owner.orgId} AND user_id = ${owner.userId}
       AND (${options.bookmarkType ?? null}::text IS NULL OR bookmark_type = ${options.bookmarkType ?? null})
       AND (bookmark_type, object_id COLLATE "C") > (${afterType}::text, ${afterId}::text COLLATE "C")
     ORDER BY bookmark_type, object_id COLLATE "C"
     LIMIT ${options.limit + 1}`;
  return rows.map(toBookmark);
}

/** One of the owner's bookmarks, or null. */
export async function findBookmark(db: Db, owner: BookmarkOwner, key: { bookmarkType: string; objectId: string }): Promise<BookmarkView | null> {
  const [r] = await db`
    SELECT * FROM bookmarks WHERE org_id = ${owner.orgId} AND user_id = ${owner.userId}
       AND bookmark_type = ${key.bookmarkType} AND object_id = ${key.objectId}`;
  return r ? toBookmark(r) : null;
}

/** Deletes one of the owner's bookmarks; returns whether it existed. */
export async function deleteBookmark(db: Db, owner: BookmarkOwner, key: { bookmarkType: string; objectId: string }): Promise<boolean> {
  const rows = await db`
    DELETE FROM bookmarks WHERE org_id = ${owner.orgId} AND user_id = ${owner.userId}
       AND bookmark_type = ${key.bookmarkType} AND object_id = ${key.objectId} RETURNING id`;
  return rows.length > 0;
}
