/**
 * The one chunked-file store (src/db/chunked_files.ts) behind package archives
 * and materialization files: what is stored reads back byte for byte, storing
 * again is a no-op, a damaged chunk is refused, and a materialization file that
 * lost a chunk is reported missing without leaving a partial file behind.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHUNK_BYTES, findChunkedFile, putChunkedFile, writeChunkedFile, type ChunkedKind } from "../../src/db/chunked_files.ts";
import type { Database } from "../../src/db/database.ts";
import { fetchFile, putFile } from "../../src/materializations/files.ts";
import { freshDatabase } from "../helpers/service.ts";

setDefaultTimeout(120_000);

const ARCHIVES: ChunkedKind = { files: "package_blobs", chunks: "package_blob_chunks", label: "archive" };
let db: Database;
let dir: string;
let path: string;
let bytes: Uint8Array;
let sha256: string;

beforeAll(async () => {
  db = await freshDatabase();
  dir = await mkdtemp(join(tmpdir(), "chunked-"));
  // two full chunks and a short third one
  bytes = new Uint8Array(2 * CHUNK_BYTES + 1234);
  for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(bytes.length, i + 65536)));
  sha256 = createHash("sha256").update(bytes).digest("hex");
  path = join(dir, "file.bin");
  await writeFile(path, bytes);
}, 120_000);
afterAll(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

test("a stored file reads back byte for byte; storing it again adds nothing", async () => {
  await db.sql.begin((tx) => putChunkedFile(tx, ARCHIVES, { path, sha256, size: bytes.length }));
  await db.sql.begin((tx) => putChunkedFile(tx, ARCHIVES, { path, sha256, size: bytes.length }));
  expect(await findChunkedFile(db.sql, ARCHIVES, sha256)).toEqual({ sha256, size: bytes.length, chunks: 3 });
  const [n] = await db.sql`SELECT count(*)::int AS n, sum(length(data))::int AS size FROM package_blob_chunks WHERE sha256 = ${sha256}`;
  expect(n).toEqual({ n: 3, size: bytes.length });
  const target = join(dir, "out.bin");
  expect(await writeChunkedFile(db.sql, ARCHIVES, { sha256, target })).toBe(true);
  expect(Buffer.compare(await readFile(target), Buffer.from(bytes))).toBe(0);
  expect(await writeChunkedFile(db.sql, ARCHIVES, { sha256: "0".repeat(64), target: join(dir, "none.bin") })).toBe(false);
});

test("a damaged chunk is refused (size or hash differs)", async () => {
  await db.sql`UPDATE package_blob_chunks SET data = substring(data FROM 2) WHERE sha256 = ${sha256} AND seq = 1`;
  await expect(writeChunkedFile(db.sql, ARCHIVES, { sha256, target: join(dir, "damaged.bin") }))
    .rejects.toThrow(`the archive ${sha256} is damaged in the database (its size or hash differs)`);
});

test("a materialization file is fetched through a temporary file; one that lost a chunk is missing, with no partial file left", async () => {
  await db.sql.begin((tx) => putFile(tx, path, { sha256, size: bytes.length }));
  const cache = join(dir, "cache");
  expect(await fetchFile(db.sql, sha256, join(cache, "a.parquet"))).toBe(true);
  expect(Buffer.compare(await readFile(join(cache, "a.parquet")), Buffer.from(bytes))).toBe(0);
  await db.sql`DELETE FROM materialization_chunks WHERE sha256 = ${sha256} AND seq = 2`;
  expect(await fetchFile(db.sql, sha256, join(cache, "b.parquet"))).toBe(false);
  expect(await readdir(cache)).toEqual(["a.parquet"]);
});
