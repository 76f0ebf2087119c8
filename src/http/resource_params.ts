/**
 * Path parameters that name a resource, shared by the route modules of every
 * folder (so no folder imports another folder's route module for them).
 * @module
 */
import { t } from "elysia";
import { name, versionIdParam } from "./params.ts";

/** Path params `{ org, env }`. */
export const envParams = t.Object({ org: name("organizationName"), env: name("environmentName") });

/** Path params `{ org, env, pkg }`. */
export const pkgParams = t.Object({ org: name("organizationName"), env: name("environmentName"), pkg: name("packageName") });

/** Path params `{ org, env, pkg, versionId }`. */
export const versionParams = t.Object({
  org: name("organizationName"),
  env: name("environmentName"),
  pkg: name("packageName"),
  versionId: versionIdParam,
});

/** Path params `{ org, ws }`. */
export const wsParams = t.Object({ org: name("organizationName"), ws: name("workspaceName") });
