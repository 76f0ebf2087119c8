/**
 * `archiveStatus: error_state` is set by the service: a version whose stored
 * archive is found damaged when a node loads it (its bytes no longer match the
 * sha256 recorded at publish) is put in error_state, the request that found it
 * answers 409 saying so, and the version can then be neither queried nor
 * unarchived; publishing the same files again repairs the stored copy; the
 * PATCH refusal says when the service sets it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { zipFiles } from "../fixtures/engine_package.ts";
import { API, publish, smallPackage, startWorld, type World } from "./helpers.ts";

let w: World;
let zip: Uint8Array;
const P = `${API}/organizations/acme/environments/prod/packages/flights`;
const QUERY = `${P}/models/models/flights.malloy/query`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  zip = zipFiles(smallPackage());
  expect((await publish(w, "flights", "1.0.0", { token: w.admin, zip })).status).toBe(201);
  expect((await publish(w, "flights", "1.1.0", { token: w.admin, files: smallPackage({ "notes.txt": "another archive" }) })).status).toBe(201);
}, 120_000);
afterAll(() => w?.s.close());

describe("error_state", () => {
  test("a damaged stored archive puts its versions in error_state; queries say so; PATCH cannot unarchive", async () => {
    const count = { query: "run: flights -> { aggregate: flight_count }" };
    const [v] = await w.s.service.db.sql`SELECT blob_sha256 AS sha FROM package_versions WHERE version_id = '1.0.0'`;
    const sha = v!.sha as string;
    // the database copy is damaged, and this node has no extracted copy nor compiled model (a new node)
    await w.s.service.db.sql`UPDATE package_blob_chunks SET data = data || '\\x00'::bytea WHERE sha256 = ${sha} AND seq = 0`;
    await rm(join(w.dataDir, "packages", sha), { recursive: true, force: true });
    const { evictVersions } = await import("../../src/archives/compiled_models.ts");
    const uuids = (await w.s.service.db.sql`SELECT id FROM package_versions`).map((r) => r.id as string);
    evictVersions(w.s.service.ctx, uuids);

    const r = await w.s.call("POST", QUERY, { token: w.admin, body: { ...count, versionId: "1.0.0" } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("CONFLICT");
    expect(r.body.message).toContain("damaged");
    expect(r.body.message).toContain("error_state");
    expect((await w.s.call("GET", `${P}/versions/1.0.0`, { token: w.admin })).body.archiveStatus).toBe("error_state");
    // another archive is not touched
    expect((await w.s.call("GET", `${P}/versions/1.1.0`, { token: w.admin })).body.archiveStatus).toBe("unarchive");
    const again = await w.s.call("POST", QUERY, { token: w.admin, body: { ...count, versionId: "1.0.0" } });
    expect(again.status).toBe(400);
    expect(again.body.message).toContain("archive was found damaged");
    const unarchive = await w.s.call("PATCH", `${P}/versions/1.0.0`, { token: w.admin, body: { archiveStatus: "unarchive" } });
    expect(unarchive.status).toBe(400);
    expect(unarchive.body.message).toContain("error_state");
    const set = await w.s.call("PATCH", `${P}/versions/1.0.0`, { token: w.admin, body: { archiveStatus: "archive" } });
    expect(set.status).toBe(400);
    const byClient = await w.s.call("PATCH", `${P}/versions/1.0.0`, { token: w.admin, body: { archiveStatus: "error_state" } });
    expect(byClient.status).toBe(200); // the same value is ignored
    // publishing the same files again stores the archive again: the versions serve again
    expect((await publish(w, "flights", "1.2.0", { token: w.admin, zip })).status).toBe(201);
    for (const id of ["1.0.0", "1.1.0", "1.2.0"]) {
      expect((await w.s.call("GET", `${P}/versions/${id}`, { token: w.admin })).body.archiveStatus).toBe("unarchive");
    }
    await rm(join(w.dataDir, "packages", sha), { recursive: true, force: true });
    evictVersions(w.s.service.ctx, uuids);
    const served = await w.s.call("POST", QUERY, { token: w.admin, body: { ...count, versionId: "1.0.0" } });
    expect(served.status).toBe(200);
    expect(served.body.data[0].flight_count).toBeGreaterThan(0);
  });

  test("the PATCH refusal says when the service sets error_state (not on failed runs)", async () => {
    const r = await w.s.call("PATCH", `${P}/versions/1.2.0`, { token: w.admin, body: { archiveStatus: "error_state" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("stored archive is found damaged");
    expect(r.body.message).not.toContain("run fails");
  });
});
