import { describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { ApiError } from "../../src/http/errors.ts";
import { readArchive } from "../../src/engine/mod.ts";
import { bytes } from "../fixtures/engine_package.ts";

const MINIMAL: Record<string, Uint8Array> = {
  "publisher.json": bytes('{"name":"p"}'),
  "model.malloy": bytes("source: s is duckdb.sql('select 1 as x')\n"),
};

function refusal(zip: Uint8Array, options = {}): ApiError {
  try {
    readArchive(zip, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("readArchive accepted the archive");
}

/** Overwrites the declared uncompressed size of the named entry in the central directory. */
function forgeDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const target = new TextEncoder().encode(name);
  for (let at = 0; at + 46 < out.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const length = view.getUint16(at + 28, true);
    const entryName = out.subarray(at + 46, at + 46 + length);
    if (entryName.length === target.length && entryName.every((b, i) => b === target[i])) {
      view.setUint32(at + 24, size, true);
      return out;
    }
  }
  throw new Error(`entry ${name} not found`);
}

describe("readArchive", () => {
  test("returns every file by relative path", () => {
    const files = readArchive(zipSync({ ...MINIMAL, "data/x.csv": bytes("a\n1\n") }));
    expect([...files.keys()].sort()).toEqual(["data/x.csv", "model.malloy", "publisher.json"]);
    expect(new TextDecoder().decode(files.get("data/x.csv"))).toBe("a\n1\n");
  });

  test("strips a single top-level folder shared by every file", () => {
    const zip = zipSync({
      "my-package/publisher.json": MINIMAL["publisher.json"],
      "my-package/models/a.malloy": MINIMAL["model.malloy"],
      "__MACOSX/my-package/._a.malloy": bytes("junk"),
    });
    expect([...readArchive(zip).keys()].sort()).toEqual(["models/a.malloy", "publisher.json"]);
  });

  test("keeps paths when files live in several top-level folders", () => {
    const zip = zipSync({
      "a/publisher.json": MINIMAL["publisher.json"],
      "b/m.malloy": MINIMAL["model.malloy"],
    });
    const error = refusal(zip);
    expect(error.message).toContain("no publisher.json");
  });

  test.each([
    ["/etc/evil.malloy", "absolute path"],
    ["../evil.malloy", "'..' segment"],
    ["models/../../evil.malloy", "'..' segment"],
    ["models\\evil.malloy", "backslash"],
    ["C:/evil.malloy", "absolute path"],
  ])("refuses the entry %p (%s)", (name, reason) => {
    const error = refusal(zipSync({ ...MINIMAL, [name]: bytes("x") }));
    expect(error.status).toBe(400);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.message).toContain(reason);
    expect(error.message).toContain(name);
  });

  test("refuses symbolic links (unix mode S_IFLNK in the external attributes)", () => {
    const zip = zipSync({
      ...MINIMAL,
      "data/passwd": [bytes("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    });
    const error = refusal(zip);
    expect(error.status).toBe(400);
    expect(error.message).toContain("symbolic link");
  });

  test("accepts ordinary unix files with permissions", () => {
    const zip = zipSync({
      ...MINIMAL,
      "data/x.csv": [bytes("a\n"), { os: 3, attrs: (0o100644 << 16) >>> 0 }],
    });
    expect(readArchive(zip).has("data/x.csv")).toBe(true);
  });

  test("refuses more than the default 10,000 entries", () => {
    const entries: Record<string, Uint8Array> = { ...MINIMAL };
    for (let i = 0; i < 10_000; i++) entries[`data/f${i}.txt`] = new Uint8Array(0);
    const error = refusal(zipSync(entries, { level: 0 }));
    expect(error.status).toBe(400);
    expect(error.message).toContain("10002 entries");
  });

  test("refuses more entries than maxEntries", () => {
    const error = refusal(zipSync({ ...MINIMAL, "a.txt": bytes("a"), "b.txt": bytes("b") }), {
      maxEntries: 3,
    });
    expect(error.status).toBe(400);
    expect(error.message).toContain("limit of 3");
  });

  test("refuses (413) archives over maxBytes", () => {
    const error = refusal(zipSync({ ...MINIMAL, "data/big.csv": new Uint8Array(5000) }), {
      maxBytes: 4000,
    });
    expect(error.status).toBe(413);
    expect(error.code).toBe("PACKAGE_TOO_LARGE");
    expect(error.message).toContain("limit of 4000 bytes");
  });

  test("refuses (413) on declared sizes alone, before inflating", () => {
    const zip = forgeDeclaredSize(zipSync(MINIMAL), "model.malloy", 0xfffffff0);
    const error = refusal(zip, { maxBytes: 1024 * 1024 });
    expect(error.status).toBe(413);
  });

  test("refuses an entry that inflates to more than it declares", () => {
    const zip = forgeDeclaredSize(zipSync({ ...MINIMAL, "data/z.csv": new Uint8Array(100_000) }), "data/z.csv", 10);
    const error = refusal(zip);
    expect(error.status).toBe(400);
    expect(error.message).toContain("more than its declared 10 bytes");
  });

  test("refuses bytes that are not a zip", () => {
    const error = refusal(bytes("hello, this is not a zip file at all"));
    expect(error.status).toBe(400);
    expect(error.message).toContain("not a readable zip");
  });

  test("requires publisher.json", () => {
    const error = refusal(zipSync({ "model.malloy": MINIMAL["model.malloy"] }));
    expect(error.message).toContain("no publisher.json");
    expect(error.message).toContain("add a publisher.json");
  });

  test("requires publisher.json to be valid JSON", () => {
    const error = refusal(zipSync({ ...MINIMAL, "publisher.json": bytes("{name:") }));
    expect(error.message).toContain("publisher.json is not valid JSON");
  });

  test("requires publisher.json to be an object", () => {
    const error = refusal(zipSync({ ...MINIMAL, "publisher.json": bytes("[1,2]") }));
    expect(error.message).toContain("must be a JSON object");
  });

  test("requires at least one .malloy file", () => {
    const error = refusal(zipSync({ "publisher.json": MINIMAL["publisher.json"], "a.txt": bytes("x") }));
    expect(error.message).toContain("no .malloy file");
  });
});
