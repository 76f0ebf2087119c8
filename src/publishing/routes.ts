/**
 * Publishing a package version (multipart): the route that reads the form,
 * publishes (./publish.ts) and runs what follows a publish (./after_publish.ts).
 * It sits above packages, versions, models, runs and events, which it uses.
 * @module
 */
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { security } from "../http/security.ts";
import { pkgParams } from "../http/resource_params.ts";
import { packageRules } from "../packages/route_rules.ts";
import { findPackage, packageView } from "../packages/store.ts";
import { connectionLookup } from "../connections/store.ts";
import { extractionDir } from "../archives/store.ts";
import { findVersion, versionView } from "../versions/store.ts";
import { afterPublish } from "./after_publish.ts";
import { publishVersion } from "./publish.ts";
import { readPublishForm, uploadDirOf } from "./publish_form.ts";

const publishDoc = {
  summary: "Publish a package version (multipart: package, version, packageFile, md5Hash); compiles every model, stores nothing when refused",
  tags: ["packages"],
  requestBody: {
    required: true,
    content: {
      "multipart/form-data": {
        schema: {
          type: "object" as const,
          required: ["version", "packageFile", "md5Hash"],
          properties: {
            package: { type: "string" as const, description: "JSON: { description, ...metadata }" },
            version: { type: "string" as const, description: 'JSON: { "id": "1.0.0", "pinLatest": true }' },
            packageFile: { type: "string" as const, format: "binary", description: "zip of the package folder" },
            md5Hash: { type: "string" as const, description: "hex md5 of packageFile" },
          },
        },
      },
    },
  },
};

function publishPlugin(ctx: AppContext, prefix: string) {
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(packageRules(ctx))
    .post(
      "/:env/packages/:pkg",
      async ({ env, params, principal, request, set }) => {
        const p = required(principal);
        const uploadDir = uploadDirOf(ctx.config.dataDir);
        const form = await readPublishForm(request, { packageName: params.pkg, uploadDir });
        const keys = { secretKey: ctx.config.secretKey, dataDir: ctx.config.dataDir };
        let published: Awaited<ReturnType<typeof publishVersion>>;
        try {
          published = await publishVersion(ctx.sql, {
            target: { envId: env.id, packageName: params.pkg, createdBy: p.kind === "user" ? p.userId : null },
            form,
          }, { cacheDir: extractionDir(ctx.config), uploadDir, maxBytes: ctx.config.maxPackageBytes, maxCompressionRatio: ctx.config.maxCompressionRatio, lookupConnection: connectionLookup(ctx.sql, env.id, keys), compileTimeoutMs: ctx.config.compileTimeoutMs });
        } finally {
          await form.dispose();
        }
        const runId = await afterPublish(ctx, published, {
          envId: env.id,
          packageName: params.pkg,
          source: "api",
          createdBy: p.kind === "user" ? p.userId : null,
        });
        const pkg = await findPackage(ctx.sql, p, { envId: env.id, name: params.pkg });
        const version = (await findVersion(ctx.sql, published.version.packageId, published.version.id)) ?? published.version;
        set.status = 201;
        return {
          ...packageView(pkg!),
          version: versionView({ ...version, isLatest: pkg!.latestVersion === published.version.id }),
          ...(runId ? { runId } : {}),
          // notebooks (.malloynb) compile like models but are listed as what they are
          models: published.models.map((m) => m.modelPath).filter((path) => !isNotebook(path)),
          notebooks: published.models.map((m) => m.modelPath).filter(isNotebook),
          ...(published.failedNotebooks ? { failedNotebooks: published.failedNotebooks } : {}),
          // gates any caller can open (a given no attribute fills): published, and said
          ...(published.accessWarnings ? { accessWarnings: published.accessWarnings } : {}),
        };
      },
      { params: pkgParams, parse: "none", publishAccess: "modeler", detail: publishDoc },
    );
}

/** Whether a model path is a notebook (`.malloynb`). */
function isNotebook(path: string): boolean {
  return path.endsWith(".malloynb");
}

/** The publish route (environment-scoped under both spellings). */
export function publishRoutes(ctx: AppContext) {
  return new Elysia().use(environmentScoped((prefix) => publishPlugin(ctx, prefix)));
}
