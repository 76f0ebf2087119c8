import { afterAll, describe, expect, test } from "bun:test";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { rm } from "node:fs/promises";
import { extractArchive, removeExtracted, sha256Hex } from "../../src/engine/mod.ts";
import { bytes, tempDir, zipFiles } from "../fixtures/engine_package.ts";

const files = new Map([
  ["publisher.json", bytes('{"name":"p"}')],
  ["models/a.malloy", bytes("source: s is duckdb.sql('select 1 as x')\n")],
  ["data/x.csv", bytes("a\n1\n")],
]);
const zip = zipFiles(files, "pkg/");
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) {
    for (const entry of await readdir(dir)) await removeExtracted(join(dir, entry));
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

describe("extractArchive", () => {
  test("writes the files under <cacheDir>/<sha256>/ and returns that absolute path", async () => {
    const cacheDir = await tempDir("engine-cache-");
    dirs.push(cacheDir);
    const path = await extractArchive(zip, { cacheDir });
    expect(path).toBe(join(cacheDir, await sha256Hex(zip)));
    expect(await readFile(join(path, "models/a.malloy"), "utf8")).toContain("source: s");
    expect(await readFile(join(path, "data/x.csv"), "utf8")).toBe("a\n1\n");
    expect(await readdir(cacheDir)).toEqual([await sha256Hex(zip)]);
  });

  test("makes the files and folders read-only and private (0400 files, 0500 folders)", async () => {
    const cacheDir = await tempDir("engine-cache-");
    dirs.push(cacheDir);
    const path = await extractArchive(zip, { cacheDir });
    expect((await stat(join(path, "data/x.csv"))).mode & 0o777).toBe(0o400);
    expect((await stat(join(path, "data"))).mode & 0o777).toBe(0o500);
    expect((await stat(path)).mode & 0o777).toBe(0o500);
  });

  test("reuses an existing extraction", async () => {
    const cacheDir = await tempDir("engine-cache-");
    dirs.push(cacheDir);
    const first = await extractArchive(zip, { cacheDir });
    const before = (await stat(join(first, "data/x.csv"))).mtimeMs;
    await Bun.sleep(20);
    const second = await extractArchive(zip, { cacheDir });
    expect(second).toBe(first);
    expect((await stat(join(second, "data/x.csv"))).mtimeMs).toBe(before);
  });

  test("concurrent callers all get one complete folder and leave no temp folders", async () => {
    const cacheDir = await tempDir("engine-cache-");
    dirs.push(cacheDir);
    const paths = await Promise.all(Array.from({ length: 8 }, () => extractArchive(zip, { cacheDir })));
    expect(new Set(paths).size).toBe(1);
    expect(await readdir(cacheDir)).toEqual([await sha256Hex(zip)]);
    expect((await readdir(join(paths[0], "models")))).toEqual(["a.malloy"]);
  });

  test("refuses a bad archive and leaves nothing behind", async () => {
    const cacheDir = await tempDir("engine-cache-");
    dirs.push(cacheDir);
    const bad = zipFiles(new Map([["../evil.malloy", bytes("x")]]));
    await expect(extractArchive(bad, { cacheDir })).rejects.toThrow("'..' segment");
    expect(await readdir(cacheDir)).toEqual([]);
  });

  test("sha256Hex matches a known digest", async () => {
    expect(await sha256Hex(bytes("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  test("a stale temp folder of a crashed writer does not block extraction", async () => {
    const cacheDir = await tempDir("engine-cache-");
    dirs.push(cacheDir);
    await writeFile(join(cacheDir, ".tmp-crashed"), "partial");
    const path = await extractArchive(zip, { cacheDir });
    expect(await readFile(join(path, "publisher.json"), "utf8")).toBe('{"name":"p"}');
  });
});
