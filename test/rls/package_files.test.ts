/**
 * A package's files are its data: whoever downloads the version source (the
 * zip) reads every row of every data file, past `#(authorize)` and `#(bind)`.
 * For a version with such sources only those who may query the package's
 * connections directly (its modelers and admins) may; viewers, the API keys
 * of viewer groups and group members alike get 403 (404 when they cannot see
 * the package). A version without them stays readable by viewers
 * (test/packages/access.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { API } from "../packages/helpers.ts";
import { admin, type SalesWorld, startSalesWorld } from "./world.ts";

let w: SalesWorld;
let mo: string;
let outsider: string;
const P = `${API}/organizations/acme/environments/prod/packages/sales`;

beforeAll(async () => {
  w = await startSalesWorld();
  mo = await w.s.createUser("mo");
  await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:mo", permission: "member" }, 201);
  await admin(w, "POST", `/organizations/acme/environments/prod/packages/sales/permissions`, { userGroupId: "user:mo", permission: "modeler" }, 201);
  outsider = await w.s.createUser("outsider");
}, 300_000);
afterAll(() => w?.s.close());

/** The files of a downloaded source zip, or the status when it was refused. */
async function download(auth: { token?: string; apiKey?: string }, query = ""): Promise<{ status: number; files?: Record<string, string> }> {
  const headers: Record<string, string> = { authorization: auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}` };
  const r = await w.s.service.handle(new Request(`http://localhost${P}/source${query}`, { headers }));
  if (r.status !== 200) {
    await r.text();
    return { status: r.status };
  }
  const files = unzipSync(new Uint8Array(await r.arrayBuffer()));
  return { status: 200, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextDecoder().decode(v)])) };
}

describe("version source (GET P/source)", () => {
  test("viewers, their API keys and authorized-group members who are only viewers get 403: the zip holds every row", async () => {
    for (const [who, auth] of [["ann", { token: w.ann }], ["bob", { token: w.bob }], ["sales_eu key", { apiKey: w.salesKey }]] as const) {
      const r = await download(auth);
      expect([who, r.status]).toEqual([who, 403]);
      expect([who, (await download(auth, "?versionId=1.0.0")).status]).toEqual([who, 403]);
    }
    // one who cannot see the package: 404 as before
    expect((await download({ token: outsider })).status).toBe(404);
  });

  test("modelers and admins of the package download it (they may query its connections directly)", async () => {
    for (const token of [mo, w.admin]) {
      const r = await download({ token });
      expect(r.status).toBe(200);
      expect(r.files!["data/payroll.csv"]).toContain("EU,100");
    }
  });
});
