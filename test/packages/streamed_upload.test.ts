/**
 * Streamed publish: the upload goes to a temporary file in DATA_DIR/uploads
 * (removed on every path), the archive is unpacked entry by entry from it and
 * stored in 4 MiB chunks, and a node rebuilds a package folder from those
 * chunks byte for byte.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtemp, readdir, readFile, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "fflate";
import postgres from "postgres";
import { readArchive } from "../../src/engine/zip/archive.ts";
import { removeExtracted } from "../../src/engine/zip/extract.ts";
import { extractStoredArchive } from "../../src/archives/store.ts";
import { removeStaleUploads } from "../../src/publishing/publish_form.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrate, MIGRATIONS_DIR } from "../../src/db/migrate.ts";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { rawZip, type RawEntry } from "../fixtures/raw_zip.ts";
import { SERVER_URL } from "../helpers/service.ts";
import { API, md5, packageRowCounts, publish, smallPackage, startWorld, type World } from "./helpers.ts";

setDefaultTimeout(120_000);

const MiB = 1024 * 1024;
let w: World;
let empty: Record<string, number>;
const previousLimit = process.env.MAX_UPLOAD_BYTES;

beforeAll(async () => {
  // the edge reads MAX_UPLOAD_BYTES when the service starts
  process.env.MAX_UPLOAD_BYTES = String(12 * MiB);
  try {
    w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  } finally {
    if (previousLimit === undefined) delete process.env.MAX_UPLOAD_BYTES;
    else process.env.MAX_UPLOAD_BYTES = previousLimit;
  }
  empty = await packageRowCounts(w);
}, 240_000);
afterAll(() => w.s.close(), 120_000);

const uploads = async () => await readdir(join(w.dataDir, "uploads")).catch(() => [] as string[]);
const extracted = async () => (await readdir(join(w.dataDir, "packages")).catch(() => [] as string[])).sort();

/** Random bytes (incompressible), `n` long. */
function random(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += 65536) crypto.getRandomValues(out.subarray(at, Math.min(at + 65536, n)));
  return out;
}

/** A multipart publish body that sends `cut` bytes of the zip, then fails (a client that goes away). */
function brokenBody(zip: Uint8Array, cut: number): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = "----broken-upload";
  const enc = new TextEncoder();
  const head = enc.encode([
    `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n{"id":"1.0.0"}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="md5Hash"\r\n\r\n${md5(zip)}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="packageFile"; filename="p.zip"\r\n\r\n`,
  ].join(""));
  let step = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (step === 0) controller.enqueue(head);
      else if (step === 1) controller.enqueue(zip.subarray(0, cut));
      else {
        await Bun.sleep(10);
        controller.error(new Error("connection reset by peer"));
      }
      step++;
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function send(body: { body: ReadableStream<Uint8Array>; contentType: string }, pkg = "streamed") {
  const response = await w.s.service.handle(new Request(`http://localhost${API}/organizations/acme/environments/prod/packages/${pkg}`, {
    method: "POST",
    headers: { authorization: `Bearer ${w.admin}`, "content-type": body.contentType },
    body: body.body,
    duplex: "half",
  } as RequestInit));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe("a refused or broken upload leaves nothing behind", () => {
  test("the body breaks off in the middle of packageFile: 400, no temporary file, no rows, no folder", async () => {
    const zip = zipFiles(smallPackage({ "data/noise.bin": random(2 * MiB) }));
    const before = await extracted();
    const r = await send(brokenBody(zip, Math.floor(zip.length / 2)));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("broke off");
    expect(await uploads()).toEqual([]);
    expect(await packageRowCounts(w)).toEqual(empty);
    expect(await extracted()).toEqual(before);
  });

  test("a streamed body over MAX_UPLOAD_BYTES (no Content-Length): 413 while streaming, no temporary file", async () => {
    const zip = zipFiles(smallPackage({ "data/noise.bin": random(13 * MiB) }));
    const boundary = "----too-large";
    const enc = new TextEncoder();
    const parts = [
      enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n{"id":"1.0.0"}\r\n--${boundary}\r\nContent-Disposition: form-data; name="packageFile"; filename="p.zip"\r\n\r\n`),
      ...Array.from({ length: Math.ceil(zip.length / MiB) }, (_, i) => zip.subarray(i * MiB, (i + 1) * MiB)),
      enc.encode(`\r\n--${boundary}--\r\n`),
    ];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const r = await send({ body, contentType: `multipart/form-data; boundary=${boundary}` });
    expect(r.status).toBe(413);
    expect(r.body.message).toContain("limit");
    expect(await uploads()).toEqual([]);
    expect(await packageRowCounts(w)).toEqual(empty);
  });

  test("md5 mismatch, a model that does not compile, a bad zip: refused, no temporary file, no folder", async () => {
    const before = await extracted();
    const wrongHash = await publish(w, "streamed", "1.0.0", { token: w.admin, md5: "0".repeat(32) });
    expect(wrongHash.status).toBe(400);
    const broken = await publish(w, "streamed", "1.0.0", { token: w.admin, files: smallPackage({ "models/bad.malloy": "source: x is nope" }) });
    expect(broken.status).toBe(400);
    const notZip = await publish(w, "streamed", "1.0.0", { token: w.admin, zip: bytes("not a zip at all") });
    expect(notZip.status).toBe(400);
    expect(notZip.body.message).toContain("not a readable zip archive");
    expect(await uploads()).toEqual([]);
    expect(await packageRowCounts(w)).toEqual(empty);
    expect(await extracted()).toEqual(before);
  });
});

describe("headers that lie, unpacked from the file", () => {
  const stored = (): RawEntry[] => [...smallPackage()].map(([name, data]) => ({ name, method: 0, data, size: data.length }));
  const cases: [string, RawEntry, string][] = [
    ["a stored entry longer than it declares", { name: "data/long.bin", method: 0, data: random(300_000), size: 1_000 }, "more than its declared 1000 bytes"],
    ["a deflated entry shorter than it declares", { name: "data/short.csv", method: 8, data: deflateSync(bytes("a,b\n".repeat(1000))), size: 8_000 }, "not its declared 8000"],
    ["a model that declares 100 bytes and inflates to 2 MiB", { name: "models/liar.malloy", method: 8, data: deflateSync(bytes(" ".repeat(2 * MiB))), size: 100 }, "more than its declared 100 bytes"],
  ];
  for (const [what, entry, needle] of cases) {
    test(`${what}: 400, nothing stored, no folder, no temporary file`, async () => {
      const before = await extracted();
      const r = await publish(w, "liar", "1.0.0", { token: w.admin, zip: rawZip([...stored(), entry]) });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      expect(r.body.message).toContain(needle);
      expect(await packageRowCounts(w)).toEqual(empty);
      expect(await extracted()).toEqual(before);
      expect(await uploads()).toEqual([]);
    });
  }

  test("a central directory that points outside the file: 400", async () => {
    const zip = rawZip(stored());
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    view.setUint32(zip.length - 22 + 16, zip.length + 1000, true);
    const r = await publish(w, "liar", "1.0.0", { token: w.admin, zip });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("central directory");
    expect(await packageRowCounts(w)).toEqual(empty);
  });

  test("a model text over 8 MiB (MAX_MODEL_FILE_BYTES): 413 PACKAGE_TOO_LARGE from the central directory", async () => {
    const big = bytes(`source: s is duckdb.sql('select 1 as x')\n${"// filler\n".repeat(900_000)}`);
    const r = await publish(w, "liar", "1.0.0", { token: w.admin, files: smallPackage({ "models/huge.malloy": big }) });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe("PACKAGE_TOO_LARGE");
    expect(await packageRowCounts(w)).toEqual(empty);
  });
});

describe("stored in chunks, rebuilt byte for byte", () => {
  const files = smallPackage({ "data/noise.bin": random(9 * MiB), "data/nested/deep/notes.txt": "hello\n" });
  const zip = zipFiles(files, "pkg/");
  let sha: string;

  test("a 9 MiB archive is stored as three chunks of at most 4 MiB, and downloaded as uploaded", async () => {
    const r = await publish(w, "chunked", "1.0.0", { token: w.admin, zip });
    expect(r.status).toBe(201);
    const [blob] = await w.s.service.db.sql`SELECT sha256, size, chunks FROM package_blobs b
      JOIN package_versions v ON v.blob_sha256 = b.sha256 JOIN packages p ON p.id = v.package_id WHERE p.name = 'chunked'`;
    sha = blob!.sha256 as string;
    expect(Number(blob!.size)).toBe(zip.length);
    expect(blob!.chunks).toBe(3);
    const sizes = await w.s.service.db.sql`SELECT seq, length(data) AS n FROM package_blob_chunks WHERE sha256 = ${sha} ORDER BY seq`;
    expect(sizes.map((c) => Number(c.n))).toEqual([4 * MiB, 4 * MiB, zip.length - 8 * MiB]);
    const source = await w.s.service.handle(new Request(`http://localhost${API}/organizations/acme/environments/prod/packages/chunked/source`, { headers: { authorization: `Bearer ${w.admin}` } }));
    expect(source.status).toBe(200);
    expect(source.headers.get("content-length")).toBe(String(zip.length));
    expect(Buffer.from(await source.arrayBuffer()).equals(Buffer.from(zip))).toBe(true);
    expect(await uploads()).toEqual([]);
  });

  test("a fresh cache folder (another node, or DATA_DIR lost) is rebuilt from the chunks with identical files", async () => {
    const fresh = await mkdtemp(join(tmpdir(), "rebuild-"));
    try {
      const dir = await extractStoredArchive(w.s.service.db.sql, sha, { cacheDir: fresh });
      expect(dir).toBe(join(fresh, sha));
      const expected = readArchive(zip);
      const written = (await readdir(dir!, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir!.length + 1)).sort();
      expect(written).toEqual([...expected.keys()].sort());
      for (const [path, content] of expected) {
        expect(Buffer.from(await readFile(join(dir!, path))).equals(Buffer.from(content))).toBe(true);
      }
      expect((await readdir(fresh)).filter((n) => n.startsWith(".tmp"))).toEqual([]);
      await removeExtracted(dir!);
      expect(await extractStoredArchive(w.s.service.db.sql, "0".repeat(64), { cacheDir: fresh })).toBeNull();
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  test("the node's own folder removed: a query rebuilds it from the database and answers", async () => {
    await removeExtracted(join(w.dataDir, "packages", sha));
    const r = await w.s.call("POST", `${API}/organizations/acme/environments/prod/packages/chunked/models/models/flights.malloy/query`, {
      token: w.admin,
      body: { query: "run: flights -> { aggregate: flight_count }" },
    });
    expect(r.status).toBe(200);
    expect(await readFile(join(w.dataDir, "packages", sha, "data/noise.bin"))).toEqual(Buffer.from(files.get("data/noise.bin")!));
  });
});

describe("migration 130: archives stored whole before it are cut into chunks", () => {
  test("an archive in the old bytea column reads back identical from chunks", async () => {
    let url: string | undefined;
    let name: string | undefined;
    if (SERVER_URL) {
      name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
      const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      await admin.end();
      const u = new URL(SERVER_URL);
      u.pathname = `/${name}`;
      url = u.toString();
    }
    const db = await openDatabase(url ? { url } : {});
    const before = await mkdtemp(join(tmpdir(), "migrations-"));
    try {
      for (const file of await readdir(MIGRATIONS_DIR)) {
        if (/^\d+_.*\.sql$/.test(file) && file < "130") await Bun.write(join(before, file), Bun.file(join(MIGRATIONS_DIR, file)));
      }
      await migrate(db.sql, { dir: before });
      const old = zipFiles(smallPackage({ "data/noise.bin": random(5 * MiB) }));
      const oldSha = new Bun.CryptoHasher("sha256").update(old).digest("hex");
      await db.sql`INSERT INTO package_blobs (sha256, bytes, size) VALUES (${oldSha}, ${Buffer.from(old) as never}, ${old.length})`;
      await db.sql`INSERT INTO package_blobs (sha256, bytes, size) VALUES (${"e".repeat(64)}, ${Buffer.alloc(0) as never}, 0)`;
      expect(await migrate(db.sql)).toContain("130_package_blob_chunks.sql");
      const [blob] = await db.sql`SELECT chunks FROM package_blobs WHERE sha256 = ${oldSha}`;
      expect(blob!.chunks).toBe(2);
      const cache = await mkdtemp(join(tmpdir(), "migrated-"));
      try {
        const dir = await extractStoredArchive(db.sql, oldSha, { cacheDir: cache });
        expect(Buffer.from(await readFile(join(dir!, "data/noise.bin"))).equals(Buffer.from(readArchive(old).get("data/noise.bin")!))).toBe(true);
        await removeExtracted(dir!);
      } finally {
        await rm(cache, { recursive: true, force: true });
      }
      const [none] = await db.sql`SELECT chunks, (SELECT count(*)::int FROM package_blob_chunks WHERE sha256 = ${"e".repeat(64)}) AS n FROM package_blobs WHERE sha256 = ${"e".repeat(64)}`;
      expect([none!.chunks, none!.n]).toEqual([1, 1]);
    } finally {
      await rm(before, { recursive: true, force: true });
      await db.close();
      if (SERVER_URL && name) {
        const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    }
  });
});

describe("upload files a crash left behind", () => {
  test("removeStaleUploads (run at start-up) removes upload files older than an hour, nothing else", async () => {
    const dir = await mkdtemp(join(tmpdir(), "stale-uploads-"));
    try {
      const old = join(dir, `${crypto.randomUUID()}.zip`);
      const fresh = join(dir, `${crypto.randomUUID()}.zip`);
      await Bun.write(old, "x");
      await Bun.write(fresh, "y");
      await Bun.write(join(dir, "keep.txt"), "z");
      const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
      await utimes(old, hoursAgo, hoursAgo);
      await utimes(join(dir, "keep.txt"), hoursAgo, hoursAgo);
      expect(await removeStaleUploads(dir)).toBe(1);
      expect((await readdir(dir)).sort()).toEqual([fresh.slice(dir.length + 1), "keep.txt"].sort());
      expect(await removeStaleUploads(join(dir, "missing"))).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
