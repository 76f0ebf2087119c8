import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { zipSync } from "fflate";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { API, packageRowCounts, publish, smallPackage, startWorld, type World } from "./helpers.ts";

setDefaultTimeout(60_000);

let w: World;
let empty: Record<string, number>;
beforeAll(async () => {
  // Version semantics before any index run (indexing is tested in test/retrieval).
  w = await startWorld({ MAX_PACKAGE_BYTES: "200000", INDEX_ON_PUBLISH: "false" });
  empty = await packageRowCounts(w);
}, 120_000);
afterAll(() => w.s.close());

/** A zip whose one entry is marked as a symbolic link (unix mode 0120777 in the external attributes). */
function symlinkZip(): Uint8Array {
  const zip = zipFiles(smallPackage({ "link.csv": "/etc/passwd" }));
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const name = "link.csv";
  for (let i = 0; i < zip.length - 46; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(i + 28, true);
    const entry = new TextDecoder().decode(zip.subarray(i + 46, i + 46 + nameLength));
    if (entry === name) {
      view.setUint16(i + 4, (3 << 8) | 20, true); // made by unix
      view.setUint32(i + 38, (0o120777 << 16) >>> 0, true);
    }
  }
  return zip;
}

async function refused(status: number, pkg: string, version: string, options: Parameters<typeof publish>[3], contains?: string) {
  const r = await publish(w, pkg, version, options);
  expect(r.status).toBe(status);
  expect(r.body.code).toBe(status === 413 ? "PACKAGE_TOO_LARGE" : "VALIDATION_ERROR");
  if (contains) expect(r.body.message).toContain(contains);
  expect(await packageRowCounts(w)).toEqual(empty);
  return r;
}

describe("refused publishes store nothing", () => {
  test("md5 mismatch", async () => {
    await refused(400, "p", "1.0.0", { token: w.admin, md5: "0".repeat(32) }, "does not match");
  });
  test("md5 not hex", async () => {
    await refused(400, "p", "1.0.0", { token: w.admin, md5: "xyz" }, "md5Hash");
  });
  test("version id that is not semver", async () => {
    const r = await refused(400, "p", "1.0", { token: w.admin }, "three dot-separated integers");
    expect(r.body.message).toContain("'1.0'");
    await refused(400, "p", "v1.0.0", { token: w.admin }, "three dot-separated integers");
  });
  test("version part that is not JSON", async () => {
    await refused(400, "p", "1.0.0", { token: w.admin, version: "1.0.0" }, "version");
  });
  for (const part of ["version", "packageFile", "md5Hash"]) {
    test(`missing part ${part}`, async () => {
      await refused(400, "p", "1.0.0", { token: w.admin, omit: [part] }, part);
    });
  }
  test("not multipart at all", async () => {
    const r = await w.s.call("POST", `${API}/organizations/acme/environments/prod/packages/p`, { token: w.admin, body: { version: { id: "1.0.0" } } });
    expect(r.status).toBe(400);
    expect(await packageRowCounts(w)).toEqual(empty);
  });
  test("bad zip", async () => {
    await refused(400, "p", "1.0.0", { token: w.admin, zip: bytes("this is not a zip archive") }, "not a readable zip");
  });
  test("'..' path", async () => {
    await refused(400, "p", "1.0.0", { token: w.admin, zip: zipSync({ ...Object.fromEntries(smallPackage()), "../evil.txt": bytes("x") }) }, "'..'");
  });
  test("absolute path", async () => {
    await refused(400, "p", "1.0.0", { token: w.admin, zip: zipSync({ ...Object.fromEntries(smallPackage()), "/etc/evil": bytes("x") }) }, "absolute");
  });
  test("symbolic link", async () => {
    await refused(400, "p", "1.0.0", { token: w.admin, zip: symlinkZip() }, "symbolic link");
  });
  test("too many entries", async () => {
    const entries: Record<string, Uint8Array> = Object.fromEntries(smallPackage());
    for (let i = 0; i < 10_001; i++) entries[`junk/${i}.txt`] = new Uint8Array(0);
    await refused(400, "p", "1.0.0", { token: w.admin, zip: zipSync(entries, { level: 0 }) }, "more than the limit of 10000");
  });
  test("too large unpacked (MAX_PACKAGE_BYTES) is 413", async () => {
    const big = new Uint8Array(300_000).fill(65);
    await refused(413, "p", "1.0.0", { token: w.admin, files: smallPackage({ "data/big.txt": big }) }, "limit of 200000 bytes");
  });
  test("missing publisher.json", async () => {
    const files = smallPackage();
    files.delete("publisher.json");
    await refused(400, "p", "1.0.0", { token: w.admin, files }, "publisher.json");
  });
  test("no .malloy file", async () => {
    const files = smallPackage();
    files.delete("models/flights.malloy");
    await refused(400, "p", "1.0.0", { token: w.admin, files }, ".malloy");
  });
  test("compile error lists file, line and message", async () => {
    const files = smallPackage({ "models/broken.malloy": "source: b is duckdb.table('data/flights.csv') extend {\n  measure: x is sum(no_such_column)\n}\n" });
    const r = await refused(400, "p", "1.0.0", { token: w.admin, files }, "does not compile");
    expect(r.body.problems.length).toBeGreaterThan(0);
    expect(r.body.problems[0]).toMatchObject({ file: "models/broken.malloy", line: 2 });
    expect(r.body.problems[0].message).toContain("no_such_column");
  });
  test("a model naming an unknown connection does not compile", async () => {
    const files = smallPackage({ "models/pg.malloy": "source: t is nowhere.table('public.t')\n" });
    const r = await refused(400, "p", "1.0.0", { token: w.admin, files });
    expect(r.body.problems[0]).toMatchObject({ file: "models/pg.malloy", line: 1 });
  });
});

describe("accepted publishes", () => {
  test("publish stores the version; the source round-trips byte for byte", async () => {
    const zip = zipFiles(smallPackage(), "flights/");
    const r = await publish(w, "flights", "1.0.0", { token: w.admin, zip, packagePart: { description: "Flights", owner: "data team" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "flights", description: "Flights", latestVersion: "1.0.0", indexStatus: "unknown" });
    expect(r.body.models).toEqual(["models/flights.malloy"]);
    const src = await fetchSource("flights");
    expect(src.status).toBe(200);
    expect(src.headers.get("content-type")).toBe("application/zip");
    expect(new Uint8Array(await src.arrayBuffer())).toEqual(zip as Uint8Array<ArrayBuffer>);
    const [blob] = await w.s.service.db.sql`SELECT size, sha256 FROM package_blobs`;
    expect(Number(blob!.size)).toBe(zip.length);
    const entities = await w.s.service.db.sql`SELECT kind, name, source_name, indexed FROM model_entities ORDER BY kind, name`;
    expect(entities.map((e) => `${e.kind}:${e.name}`)).toEqual(expect.arrayContaining([
      "source:flights", "dimension:carrier_code", "measure:flight_count", "view:by_carrier", "query:carrier_summary",
    ]));
    expect(entities.find((e) => e.name === "carrier_code")!.indexed).toBe(true);
  });

  test("an existing version id is 409 and changes nothing", async () => {
    const before = await packageRowCounts(w);
    const r = await publish(w, "flights", "1.0.0", { token: w.admin });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("CONFLICT");
    expect(await packageRowCounts(w)).toEqual(before);
  });

  test("concurrent publishes of one version: one 201, the others 409", async () => {
    const zips = [1, 2, 3].map((i) => zipFiles(smallPackage({ [`notes/${i}.txt`]: `copy ${i}` })));
    const results = await Promise.all(zips.map((zip) => publish(w, "race", "1.0.0", { token: w.admin, zip })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const [n] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'race'`;
    expect(n!.n).toBe(1);
    // only the winner's archive is kept
    const winner = zips[results.findIndex((r) => r.status === 201)]!;
    expect(new Uint8Array(await (await fetchSource("race")).arrayBuffer())).toEqual(winner as Uint8Array<ArrayBuffer>);
  });

  test("identical archives are stored once", async () => {
    const zip = zipFiles(smallPackage({ "notes/same.txt": "same" }));
    expect((await publish(w, "twin", "1.0.0", { token: w.admin, zip })).status).toBe(201);
    const before = await packageRowCounts(w);
    expect((await publish(w, "twin", "1.0.1", { token: w.admin, zip })).status).toBe(201);
    const after = await packageRowCounts(w);
    expect(after.blobs).toBe(before.blobs);
    expect(after.versions).toBe(before.versions + 1);
  });

  test("source of a named version, of an unknown version (404), bad versionId (400)", async () => {
    expect((await fetchSource("twin", "?versionId=1.0.0")).status).toBe(200);
    expect((await fetchSource("twin", "?versionId=9.9.9")).status).toBe(404);
    expect((await fetchSource("twin", "?versionId=a/b")).status).toBe(400);
  });
});

async function fetchSource(pkg: string, query = ""): Promise<Response> {
  return await w.s.service.handle(new Request(`http://localhost${API}/organizations/acme/environments/prod/packages/${pkg}/source${query}`, {
    headers: { authorization: `Bearer ${w.admin}` },
  }));
}
