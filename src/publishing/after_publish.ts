/**
 * What follows a committed publish, shared by the API, watch mode and the
 * demo (so none of them imports the package route module).
 * @module
 */
import type { AppContext } from "../context.ts";
import { enqueueRun } from "../runs/worker.ts";
import { emitPackageEvent } from "../events/hub.ts";
import type { Published } from "./publish.ts";

/**
 * What follows every publish (API, watch mode, demo) once it committed: the
 * version's first run (every persist source, every index and the retrieval
 * index; its failure never undoes the publish) and the `published` event.
 * Returns the run's id, none when `INDEX_ON_PUBLISH` is false.
 */
export async function afterPublish(
  ctx: AppContext,
  published: Published,
  options: { envId: string; packageName: string; source: "api" | "watch" | "demo"; createdBy?: string | null },
): Promise<string | undefined> {
  let runId: string | undefined;
  if (ctx.config.indexOnPublish) {
    runId = await enqueueRun(ctx, {
      packageId: published.version.packageId,
      versionUuid: published.version.uuid,
      createdBy: options.createdBy ?? null,
      models: published.models, // as stored: the run is planned without reading them back
      compiled: published.compiled, // and builds on the publish's compile
    });
  }
  await emitPackageEvent(ctx, { envId: options.envId, packageName: options.packageName }, {
    event: "published",
    data: { versionId: published.version.id, source: options.source, models: published.models.map((m) => m.modelPath), runId },
  });
  return runId;
}
