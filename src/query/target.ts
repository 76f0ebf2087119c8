/**
 * The target of a query as the caller may read it: the package with the
 * caller's rank (404 unless readable, cached per request time), the version
 * to run (latest unarchived by default; archived or error_state refused)
 * and, for a query through a workspace, the workspace's access to the package.
 * @module
 */

import type { AppContext } from "../context.ts";
import { READ } from "../access/roles.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { authGeneration, decisionCache } from "../http/auth_cache.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { type ArgumentStyle, argName, type CheckedQueryArgs } from "./args.ts";
import { findQueryTarget, type QueryTarget, type TargetVersion, workspaceAccess } from "./store.ts";

/**
 * The package of the query with the caller's rank and the version to run, in
 * one round trip; 404 (the same message whether the organization,
 * environment or package is missing or invisible) unless the caller may read it.
 *
 * With `since` (when the request arrived) the whole answer is cached per
 * caller and names (attribute names included) under the generation of
 * http/auth_cache.ts: every table the lookup reads (access: sql/145; versions,
 * materializations and attribute values: sql/160) notes its changes there,
 * so a new or archived version, a built materialization, a changed value or
 * a revoked grant counts on the next query. A cached rank still serves a
 * lookup whose target expired.
 */
export async function readableTarget(ctx: AppContext, principal: Principal, options: { args: CheckedQueryArgs; attributes?: string[]; since?: number }): Promise<QueryTarget> {
  const args = options.args;
  const names = { org: args.organization, env: args.environment_name, pkg: args.package_name, versionId: args.version_id, attributes: options.attributes };
  let target: QueryTarget | null | undefined;
  if (options.since === undefined) target = await findQueryTarget(ctx.sql, principal, names);
  else {
    const generation = await authGeneration(ctx.sql, options.since);
    const p = principalKey(principal);
    const targets = decisionCache<QueryTarget>(ctx.sql, "query-target");
    const targetKey = `${p.kind}:${p.id}:${JSON.stringify([names.org, names.env, names.pkg, names.versionId ?? null, names.attributes ?? []])}`;
    target = targets.get(targetKey, generation);
    if (!target) {
      const cache = decisionCache<number>(ctx.sql, "package-rank");
      const key = `${p.kind}:${p.id}:${JSON.stringify([names.org, names.env, names.pkg])}`;
      const rank = cache.get(key, generation);
      target = await findQueryTarget(ctx.sql, principal, { ...names, rank });
      if (target && rank === undefined) cache.set(key, generation, target.rank);
      // frozen: one object answers many requests
      if (target) {
        Object.freeze(target.version);
        Object.freeze(target.effective);
        targets.set(targetKey, generation, Object.freeze(target));
      }
    }
  }
  if (!target || target.rank < READ) throw new NotFoundError(`package '${args.package_name}' not found in environment '${args.environment_name}'`);
  return target;
}

/**
 * The version a query names, or the latest unarchived one. A named version
 * that is archived or in error_state is a 400 that says what to do.
 */
export function queryableVersion(target: QueryTarget, options: { versionId?: string; style: ArgumentStyle }): TargetVersion {
  const version = target.version;
  const pkg = { name: target.packageName };
  const name = argName("version_id", options.style);
  if (!version) {
    throw new NotFoundError(options.versionId
      ? `version ${options.versionId} of package '${pkg.name}' not found; list its versions with GET .../packages/${pkg.name}/versions`
      : `package '${pkg.name}' has no unarchived version to query; unarchive one or publish a new one`);
  }
  if (version.archiveStatus === "archive") {
    throw new ValidationError(
      `version ${version.id} of package '${pkg.name}' is archived and cannot be queried; unarchive it with PATCH .../packages/${pkg.name}/versions/${version.id} {"archiveStatus": "unarchive"} (package admin or modeler), or leave out ${name} to query the latest version`,
    );
  }
  if (version.archiveStatus === "error_state") {
    throw new ValidationError(
      `version ${version.id} of package '${pkg.name}' is in error_state (its stored archive was found damaged) and cannot be queried; publish a fixed version, or leave out ${name} to query the latest version`,
    );
  }
  return version;
}

/** 404 unless the workspace exists in the package's organization, the caller can see it, and it has access to the package. */
export async function checkWorkspace(ctx: AppContext, principal: Principal, where: { pkg: QueryTarget; workspace: string }): Promise<void> {
  const access = await workspaceAccess(ctx.sql, principal, { target: where.pkg, workspace: where.workspace });
  if (!access || access.rank < READ) throw new NotFoundError(`workspace '${where.workspace}' not found`);
  if (!access.hasPackage) {
    throw new NotFoundError(`package '${where.pkg.packageName}' not found in workspace '${where.workspace}'; a workspace manager can add it to the workspace`);
  }
}
