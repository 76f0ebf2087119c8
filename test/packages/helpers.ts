/**
 * Helpers of the package tests: an organization with an environment, users
 * with grants inserted directly, and publishing zips built in the test.
 * @module
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestService, type TestResponse, type TestService } from "../helpers/service.ts";
import { bytes, FLIGHTS_CSV, FLIGHTS_MODEL, zipFiles } from "../fixtures/engine_package.ts";

/** API base path. */
export const API = "/api/v0";

/** A started service with an organization `acme` and an environment `prod`. */
export interface World {
  s: TestService;
  admin: string;
  orgId: string;
  envId: string;
  dataDir: string;
}

/** Starts a service (own DATA_DIR) and creates organization `acme` and environment `prod`. */
export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const dataDir = await mkdtemp(join(tmpdir(), "pkg-test-"));
  const s = await startTestService({ DATA_DIR: dataDir, ...env });
  const admin = await s.adminToken();
  const org = await s.call("POST", `${API}/organizations`, { token: admin, body: { name: "acme" } });
  if (org.status !== 201) throw new Error(`org: ${org.status} ${JSON.stringify(org.body)}`);
  const e = await s.call("POST", `${API}/organizations/acme/environments`, { token: admin, body: { name: "prod", description: "production" } });
  if (e.status !== 201) throw new Error(`env: ${e.status} ${JSON.stringify(e.body)}`);
  const [o] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'acme'`;
  const [en] = await s.service.db.sql`SELECT id FROM environments WHERE name = 'prod'`;
  return { s, admin, orgId: o!.id as string, envId: en!.id as string, dataDir };
}

/** Creates a user and grants it a role on a resource; returns its token. */
export async function userWith(w: World, userName: string, grant?: { kind: string; id: string; role: string }): Promise<string> {
  const token = await w.s.createUser(userName);
  if (grant) {
    const [u] = await w.s.service.db.sql`SELECT id FROM users WHERE user_name = ${userName}`;
    await w.s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES (${grant.kind}, ${grant.id}, 'user', ${u!.id as string}, ${grant.role})`;
  }
  return token;
}

/** The files of a small valid package (flights over a CSV). */
export function smallPackage(extra: Record<string, string | Uint8Array> = {}): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>([
    ["publisher.json", bytes(JSON.stringify({ name: "flights", description: "from publisher.json" }))],
    ["models/flights.malloy", bytes(FLIGHTS_MODEL.replace(/\n\s*join_one: carriers[^\n]*\n/, "\n"))],
    ["data/flights.csv", bytes(FLIGHTS_CSV)],
  ]);
  for (const [k, v] of Object.entries(extra)) files.set(k, typeof v === "string" ? bytes(v) : v);
  return files;
}

/** Hex md5 of bytes. */
export function md5(data: Uint8Array): string {
  return new Bun.CryptoHasher("md5").update(data).digest("hex");
}

/** Options of {@link publish}. */
export interface PublishOptions {
  token: string;
  zip?: Uint8Array;
  files?: Map<string, Uint8Array>;
  version?: unknown;
  pinLatest?: boolean;
  md5?: string;
  packagePart?: unknown;
  omit?: string[];
  prefix?: string;
}

/** Publishes a version of `pkg` in `prod` as multipart. */
export async function publish(w: World, pkg: string, versionId: string, options: PublishOptions): Promise<TestResponse> {
  const zip = options.zip ?? zipFiles(options.files ?? smallPackage());
  const form = new FormData();
  const omit = new Set(options.omit ?? []);
  if (!omit.has("package")) form.set("package", JSON.stringify(options.packagePart ?? { description: `package ${pkg}` }));
  if (!omit.has("version")) {
    form.set("version", typeof options.version === "string" ? options.version : JSON.stringify(options.version ?? { id: versionId, ...(options.pinLatest === undefined ? {} : { pinLatest: options.pinLatest }) }));
  }
  if (!omit.has("packageFile")) form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), "package.zip");
  if (!omit.has("md5Hash")) form.set("md5Hash", options.md5 ?? md5(zip));
  const base = options.prefix ?? `${API}/organizations/acme/environments/prod`;
  return await w.s.call("POST", `${base}/packages/${pkg}`, { token: options.token, body: form });
}

/** Row counts of every package table (what a refused publish must leave unchanged). */
export async function packageRowCounts(w: World): Promise<Record<string, number>> {
  const [r] = await w.s.service.db.sql`SELECT
    (SELECT count(*)::int FROM packages) AS packages,
    (SELECT count(*)::int FROM package_versions) AS versions,
    (SELECT count(*)::int FROM package_blobs) AS blobs,
    (SELECT count(*)::int FROM version_models) AS models,
    (SELECT count(*)::int FROM model_entities) AS entities`;
  return r as Record<string, number>;
}

/** Options of {@link groupApiKey}. */
export interface GroupKeyOptions {
  /** Organization of the group (default `acme`). */
  org?: string;
  /** A resource path (e.g. `/organizations/acme/environments/prod`) whose permissions grant the group viewer. */
  viewerOf?: string;
}

/** Creates a group and a token of it (as the admin); returns the API key secret. */
export async function groupApiKey(w: World, group: string, options: GroupKeyOptions = {}): Promise<string> {
  const org = options.org ?? "acme";
  const created = await w.s.call("POST", `${API}/organizations/${org}/groups`, { token: w.admin, body: { name: group } });
  if (created.status !== 201) throw new Error(`group ${group}: ${created.status} ${JSON.stringify(created.body)}`);
  if (options.viewerOf) {
    const grant = await w.s.call("POST", `${API}${options.viewerOf}/permissions`, {
      token: w.admin,
      body: { userGroupId: `group:${group}`, permission: "viewer" },
    });
    if (grant.status !== 201) throw new Error(`grant to ${group}: ${grant.status} ${JSON.stringify(grant.body)}`);
  }
  const token = await w.s.call("POST", `${API}/organizations/${org}/groups/${group}/tokens?name=mcp`, { token: w.admin });
  if (token.status !== 201) throw new Error(`token of ${group}: ${token.status} ${JSON.stringify(token.body)}`);
  return token.body.secret as string;
}
