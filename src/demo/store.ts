/**
 * The demo operations: an environment with the sample package of `demo/shop`
 * published as version 1.0.0, and a self-service organization whose creator
 * becomes its admin (one per user; system admins are not limited).
 * @module
 */
import { ConflictError } from "../errors.ts";
import { resolve } from "node:path";
import { connectionLookup } from "../connections/store.ts";
import type { Db } from "../db/database.ts";
import { deleteEnvironment, type EnvironmentRow, environmentView, type EnvironmentView, insertEnvironment } from "../environments/store.ts";
import type { AppContext } from "../context.ts";
import type { UserPrincipal } from "../access/principal.ts";
import { deleteOrganization, insertOrganization, type OrganizationRow } from "../organizations/store.ts";
import { publishVersion } from "../publishing/publish.ts";
import { afterPublish } from "../publishing/after_publish.ts";
import { extractionDir } from "../archives/store.ts";
import { readFolder, zipFolderFiles } from "../watch/folder.ts";

/** Folder of the sample package shipped with the service. */
export const DEMO_PACKAGE_DIR = resolve(import.meta.dir, "..", "..", "demo", "shop");
/** Name of the sample package. */
const DEMO_PACKAGE = "shop";
/** Model file of the sample package. */
const DEMO_MODEL = "models/shop.malloy";

/** What a demo environment creation answers. */
export interface DemoEnvironment {
  environment: EnvironmentView;
  package: { name: string; latestVersion: string; models: string[]; app: string };
  /** A ready query of the sample model (REST query route). */
  tryQuery: { method: "POST"; path: string; body: Record<string, string> };
}

async function freeDemoName(db: Db, orgId: string): Promise<string> {
  const rows = await db`SELECT name FROM environments WHERE org_id = ${orgId} AND (name = 'demo' OR name LIKE 'demo-%')`;
  const taken = new Set(rows.map((r) => r.name as string));
  if (!taken.has("demo")) return "demo";
  for (let n = 2; ; n++) if (!taken.has(`demo-${n}`)) return `demo-${n}`;
}

async function insertDemoEnvironment(ctx: AppContext, org: { id: string; name: string }, options: { name?: string; creatorUserId: string | null }): Promise<EnvironmentRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.sql.begin(async (tx) => {
        const envName = options.name ?? await freeDemoName(tx, org.id);
        const [dup] = await tx`SELECT 1 FROM environments WHERE org_id = ${org.id} AND name = ${envName}`;
        if (dup) throw new ConflictError(`environment '${envName}' already exists in organization '${org.name}'; choose another name or leave it out`);
        const description = "Demo environment with the sample package 'shop' (orders of a small web shop)";
        return await insertEnvironment(tx, { orgId: org.id, name: envName, description }, { creatorUserId: options.creatorUserId });
      }) as EnvironmentRow;
    } catch (error) {
      // a concurrent demo creation took the generated name: pick the next one
      if ((error as { code?: string }).code === "23505" && !options.name && attempt < 5) continue;
      throw error;
    }
  }
}

/**
 * Creates an environment (`demo`, `demo-2`, ... unless named) and publishes
 * the sample package into it; on a failed publish the environment is removed.
 */
export async function createDemoEnvironment(
  ctx: AppContext,
  org: { id: string; name: string },
  options: { name?: string; creatorUserId: string | null; pathPrefix: string },
): Promise<DemoEnvironment> {
  const env = await insertDemoEnvironment(ctx, org, options);
  try {
    const zip = zipFolderFiles(await readFolder(DEMO_PACKAGE_DIR));
    const keys = { secretKey: ctx.config.secretKey, dataDir: ctx.config.dataDir };
    const published = await publishVersion(ctx.sql, {
      target: { envId: env.id, packageName: DEMO_PACKAGE, createdBy: options.creatorUserId },
      form: { packageMeta: {}, versionId: "1.0.0", pinLatest: true, zip },
    }, { cacheDir: extractionDir(ctx.config), maxBytes: ctx.config.maxPackageBytes, maxCompressionRatio: ctx.config.maxCompressionRatio, lookupConnection: connectionLookup(ctx.sql, env.id, keys), compileTimeoutMs: ctx.config.compileTimeoutMs });
    await afterPublish(ctx, published, { envId: env.id, packageName: DEMO_PACKAGE, source: "demo" });
    const pkgPath = `${options.pathPrefix}/organizations/${org.name}/environments/${env.name}/packages/${DEMO_PACKAGE}`;
    return {
      environment: environmentView(env),
      package: { name: DEMO_PACKAGE, latestVersion: published.version.id, models: published.models.map((m) => m.modelPath), app: `${pkgPath}/app/` },
      tryQuery: { method: "POST", path: `${pkgPath}/models/${DEMO_MODEL}/query`, body: { sourceName: "orders", queryName: "by_category" } },
    };
  } catch (error) {
    await ctx.sql.begin((tx) => deleteEnvironment(tx, env.id)).catch(() => {});
    throw error;
  }
}

function generatedName(userName: string): string {
  const base = userName.toLowerCase().replace(/[^a-z0-9_-]/g, "-").slice(0, 100);
  const suffix = [...crypto.getRandomValues(new Uint8Array(3))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${base}-sandbox-${suffix}`;
}

/**
 * Creates a self-service organization; the caller becomes its admin. A user
 * who already created an organization (self-service or otherwise) gets 409,
 * system admins excepted. Serialized per user, so concurrent calls create one.
 */
async function createSelfServiceOrganization(
  ctx: AppContext,
  user: UserPrincipal,
  options: { name?: string; displayName?: string },
): Promise<OrganizationRow> {
  return await ctx.sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`self-service:${user.userId}`}))`;
    if (!user.systemAdmin) {
      const [own] = await tx`SELECT name FROM organizations WHERE created_by = ${user.userId} LIMIT 1`;
      if (own) {
        throw new ConflictError(`you already created organization '${own.name as string}'; self-service allows one organization per user (ask a system administrator for more)`);
      }
    }
    const name = options.name ?? generatedName(user.userName);
    const [exists] = await tx`SELECT 1 FROM organizations WHERE name = ${name}`;
    if (exists) throw new ConflictError(`organization '${name}' already exists; pick another name or leave it out for a generated one`);
    return await insertOrganization(tx, {
      name,
      displayName: options.displayName ?? `${user.userName}'s sandbox`,
      description: `Self-service organization of ${user.userName}`,
    }, user.userId);
  }) as OrganizationRow;
}

/**
 * A self-service organization with, unless `demoEnvironment` is false, its demo
 * environment. Publishing cannot share the organization's transaction (files
 * and compilation), so a failed demo environment removes the organization
 * again: the caller is left without a half-made sandbox that would count as
 * their one organization.
 */
export async function createSandbox(
  ctx: AppContext,
  user: UserPrincipal,
  options: { name?: string; displayName?: string; demoEnvironment?: boolean; pathPrefix: string },
): Promise<{ org: OrganizationRow; demo: DemoEnvironment | null }> {
  const org = await createSelfServiceOrganization(ctx, user, options);
  if (options.demoEnvironment === false) return { org, demo: null };
  try {
    return { org, demo: await createDemoEnvironment(ctx, org, { creatorUserId: user.userId, pathPrefix: options.pathPrefix }) };
  } catch (error) {
    await ctx.sql.begin((tx) => deleteOrganization(tx, org.id)).catch((cleanup) => {
      ctx.log({ level: "error", event: "sandbox_cleanup_failed", organization: org.name, message: (cleanup as Error).message });
    });
    throw error;
  }
}
