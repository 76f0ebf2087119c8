import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Deflate, inflateSync } from "fflate";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { readArchive } from "../../src/engine/zip/archive.ts";
import { concat, rawZip, type RawEntry } from "../fixtures/raw_zip.ts";
import { API, packageRowCounts, publish, smallPackage, startWorld, type World } from "./helpers.ts";

setDefaultTimeout(120_000);

const MiB = 1024 * 1024;
let w: World;
let empty: Record<string, number>;
beforeAll(async () => {
  // default MAX_PACKAGE_BYTES (256 MiB) and MAX_COMPRESSION_RATIO (100)
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  empty = await packageRowCounts(w);
}, 240_000);
afterAll(() => w.s.close());

/**
 * A deflate stream of `mib` MiB of zeros, built without compressing them all:
 * after a sync flush the stream is byte-aligned and the window holds only
 * zeros, so the block of the next MiB can be repeated (checked: 300 copies
 * inflate to exactly 300 MiB of zeros).
 */
function zeroDeflate(mib: number): Uint8Array {
  let out: Uint8Array[] = [];
  const d = new Deflate({ level: 9 }, (chunk) => out.push(chunk));
  const take = () => {
    const b = concat(out);
    out = [];
    return b;
  };
  const zeros = new Uint8Array(MiB);
  d.push(zeros);
  d.flush(true);
  const first = take();
  d.push(zeros);
  d.flush(true);
  const next = take();
  d.push(new Uint8Array(0), true);
  const tail = take();
  return concat([first, ...Array<Uint8Array>(mib - 1).fill(next), tail]);
}

/** The small valid package as stored entries, plus `extra`. */
function packageWith(extra: RawEntry[]): Uint8Array {
  const stored: RawEntry[] = [...smallPackage()].map(([name, data]) => ({ name, method: 0, data, size: data.length }));
  return rawZip([...stored, ...extra]);
}

const rssMiB = () => process.memoryUsage().rss / MiB;

async function refusedBomb(zip: Uint8Array, status: number, code: string, needle: string): Promise<number> {
  Bun.gc(true);
  const before = rssMiB();
  const r = await publish(w, "bomb", "1.0.0", { token: w.admin, zip });
  const grew = rssMiB() - before;
  expect(r.status).toBe(status);
  expect(r.body.code).toBe(code);
  expect(r.body.message).toContain(needle);
  expect(await packageRowCounts(w)).toEqual(empty);
  return grew;
}

describe("zip bombs", () => {
  const bomb300 = zeroDeflate(300);
  test("the bomb is small (300 MiB of zeros in < 400 KB); the same construction inflates to exactly its size", () => {
    expect(bomb300.length).toBeLessThan(400_000);
    const eight = inflateSync(zeroDeflate(8));
    expect(eight.length).toBe(8 * MiB);
    expect(eight.every((b) => b === 0)).toBe(true);
  });
  test("a 300 KB zip declaring a 300 MiB entry: 413 PACKAGE_TOO_LARGE from the central directory, memory stays flat", async () => {
    const zip = packageWith([{ name: "data/bomb.csv", method: 8, data: bomb300, size: 300 * MiB }]);
    const grew = await refusedBomb(zip, 413, "PACKAGE_TOO_LARGE", "MAX_PACKAGE_BYTES");
    expect(grew).toBeLessThan(64);
  });
  test("entries that each pass but add up over MAX_PACKAGE_BYTES: 413", async () => {
    const part = zeroDeflate(2);
    const many: RawEntry[] = Array.from({ length: 140 }, (_, i) => ({ name: `data/part${i}.csv`, method: 8, data: part, size: 2 * MiB }));
    await refusedBomb(packageWith(many), 413, "PACKAGE_TOO_LARGE", "MAX_PACKAGE_BYTES");
  });
  test("one entry under MAX_PACKAGE_BYTES but compressed 1000:1: 413 naming MAX_COMPRESSION_RATIO", async () => {
    const zip = packageWith([{ name: "data/zeros.csv", method: 8, data: zeroDeflate(50), size: 50 * MiB }]);
    const grew = await refusedBomb(zip, 413, "PACKAGE_TOO_LARGE", "MAX_COMPRESSION_RATIO");
    expect(grew).toBeLessThan(64);
  });
  test("a lying header (declares 1,000 bytes, inflates to 300 MiB): refused after a few MiB, memory stays flat", async () => {
    const zip = packageWith([{ name: "data/liar.csv", method: 8, data: bomb300, size: 1000 }]);
    const start = performance.now();
    const grew = await refusedBomb(zip, 400, "VALIDATION_ERROR", "more than its declared 1000 bytes");
    expect(grew).toBeLessThan(64);
    expect(performance.now() - start).toBeLessThan(20_000);
  });
  test("a lying header within the ratio (declares 3 MiB from 300 KB): refused at 3 MiB", async () => {
    const zip = packageWith([{ name: "data/liar.csv", method: 8, data: bomb300, size: 3 * MiB }]);
    const grew = await refusedBomb(zip, 400, "VALIDATION_ERROR", "more than its declared");
    expect(grew).toBeLessThan(64);
  });
  test("small files compress better than the ratio and are fine (under 1 MiB is exempt)", async () => {
    const r = await publish(w, "spaces", "1.0.0", { token: w.admin, files: smallPackage({ "data/blank.txt": bytes(" ".repeat(900_000)) }) });
    expect(r.status).toBe(201);
  });
  test("readArchive takes the ratio as a setting", () => {
    const zip = zipFiles(smallPackage({ "data/text.txt": bytes("abc".repeat(1_000_000)) }));
    expect(() => readArchive(zip, { maxCompressionRatio: 10 })).toThrow("MAX_COMPRESSION_RATIO");
    expect(readArchive(zip, { maxCompressionRatio: 2000 }).get("data/text.txt")!.length).toBe(3_000_000);
  });
});

describe("deleting removes files on disk", () => {
  const packagesDir = () => join(w.dataDir, "packages");
  async function dirs(): Promise<string[]> {
    return (await readdir(packagesDir())).filter((d) => /^[0-9a-f]{64}$/.test(d)).sort();
  }
  async function shaOf(pkg: string): Promise<string> {
    const [r] = await w.s.service.db.sql`SELECT v.blob_sha256 AS sha FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = ${pkg}`;
    return r!.sha as string;
  }
  const P = `${API}/organizations/acme/environments/prod/packages`;
  test("a package's extracted folder goes with the package; one shared with another package stays until that one goes", async () => {
    const files = smallPackage({ "notes.txt": bytes("shared archive") });
    const zip = zipFiles(files);
    expect((await publish(w, "one", "1.0.0", { token: w.admin, zip })).status).toBe(201);
    expect((await publish(w, "twin", "1.0.0", { token: w.admin, zip })).status).toBe(201);
    const other = zipFiles(smallPackage({ "notes.txt": bytes("own archive") }));
    expect((await publish(w, "one", "1.1.0", { token: w.admin, zip: other })).status).toBe(201);
    const shared = await shaOf("twin");
    const own = (await w.s.service.db.sql`SELECT blob_sha256 AS sha FROM package_versions WHERE version_id = '1.1.0'`)[0]!.sha as string;
    expect(await dirs()).toEqual(expect.arrayContaining([shared, own]));

    expect((await w.s.call("DELETE", `${P}/one`, { token: w.admin })).status).toBe(204);
    const after = await dirs();
    expect(after).toContain(shared); // twin still uses it
    expect(after).not.toContain(own);
    expect((await w.s.service.db.sql`SELECT 1 FROM package_blobs WHERE sha256 = ${own}`).length).toBe(0);

    expect((await w.s.call("DELETE", `${P}/twin`, { token: w.admin })).status).toBe(204);
    expect(await dirs()).not.toContain(shared);
    expect((await w.s.service.db.sql`SELECT 1 FROM package_blobs WHERE sha256 = ${shared}`).length).toBe(0);
  });
  test("deleting an environment removes the folders of its packages", async () => {
    expect((await w.s.call("POST", `${API}/organizations/acme/environments`, { token: w.admin, body: { name: "stage" } })).status).toBe(201);
    const zip = zipFiles(smallPackage({ "notes.txt": bytes("stage only") }));
    const r = await publish(w, "st", "1.0.0", { token: w.admin, zip, prefix: `${API}/organizations/acme/environments/stage` });
    expect(r.status).toBe(201);
    const sha = await shaOf("st");
    expect(await dirs()).toContain(sha);
    expect((await w.s.call("DELETE", `${API}/organizations/acme/environments/stage`, { token: w.admin })).status).toBe(204);
    expect(await dirs()).not.toContain(sha);
  });
  test("extracted files are private and read-only (0400 files, 0500 folders)", async () => {
    expect((await publish(w, "modes", "1.0.0", { token: w.admin })).status).toBe(201);
    const dir = join(packagesDir(), await shaOf("modes"));
    expect((await stat(dir)).mode & 0o777).toBe(0o500);
    expect((await stat(join(dir, "publisher.json"))).mode & 0o777).toBe(0o400);
    expect((await stat(join(dir, "models"))).mode & 0o777).toBe(0o500);
    expect((await stat(packagesDir())).mode & 0o077).toBe(0);
  });
});
