/**
 * A package's files are its data: whoever downloads the version source (the
 * zip) reads every row of every data file, past `#(authorize)` and `#(bind)`.
 * For a version with such sources only those who may query the package's
 * connections directly (its modelers and admins) may; viewers, the API keys
 * of viewer groups and group members alike get 403 (404 when they cannot see
 * the package). A version without them stays readable by viewers
 * (test/packages/access.test.ts). The same rule holds for the columns of
 * those files as connection entities (POST /retrieval/connection-entities).
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

/** POST /retrieval/connection-entities in environment prod, package sales' files only. */
async function packageFiles(auth: { token?: string; apiKey?: string }, body: Record<string, unknown> = { skip_matching: true }) {
  const headers: Record<string, string> = { "content-type": "application/json", authorization: auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}` };
  const r = await w.s.service.handle(new Request(`http://localhost${API}/retrieval/connection-entities`, {
    method: "POST", headers, body: JSON.stringify({ organization: "acme", environment_name: "prod", connection_name: "duckdb", ...body }),
  }));
  return { status: r.status, body: await r.json() as { tables: { table: string; package_name?: string; columns: { name: string }[] }[]; skipped: { package_name?: string; reason: string }[] } };
}

describe("connection entities (POST /retrieval/connection-entities)", () => {
  test("viewers, their API keys and authorized-group members get no columns of a restricted version's files; the package is in skipped", async () => {
    for (const [who, auth] of [["ann", { token: w.ann }], ["bob", { token: w.bob }], ["sales_eu key", { apiKey: w.salesKey }]] as const) {
      for (const body of [{ skip_matching: true }, { search_text: "payroll region amount" }, { skip_matching: true, package_name: "sales" }]) {
        const r = await packageFiles(auth, body);
        expect([who, r.status]).toEqual([who, 200]);
        expect([who, r.body.tables.filter((t) => t.package_name === "sales")]).toEqual([who, []]);
        const skipped = r.body.skipped.find((s) => s.package_name === "sales");
        expect([who, skipped?.reason]).toEqual([who, expect.stringContaining("#(authorize) or #(bind)")]);
      }
    }
  });

  test("modelers and admins of the package list its files with their columns", async () => {
    // the route needs a viewer of the environment; mo is otherwise a modeler of the package only
    await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: "user:mo", permission: "viewer" }, [200, 201]);
    for (const token of [mo, w.admin]) {
      const r = await packageFiles({ token });
      expect(r.status).toBe(200);
      const payroll = r.body.tables.find((t) => t.package_name === "sales" && t.table === "data/payroll.csv");
      expect(payroll?.columns.length).toBeGreaterThan(0);
      expect(r.body.skipped.some((s) => s.package_name === "sales")).toBe(false);
    }
  });
});
