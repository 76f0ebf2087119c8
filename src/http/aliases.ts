/**
 * Path aliases. API.md: every `/environments/` segment is also served as
 * `/projects/` (the seed's update-version path uses `projects`), both reaching
 * the same handler. Environment-scoped route plugins are built by a factory
 * that takes the segment, and {@link environmentScoped} mounts it twice.
 *
 * ```ts
 * api.use(environmentScoped((segment) =>
 *   new Elysia({ prefix: `/organizations/:org/${segment}/:env/packages` }).get(...)))
 * ```
 * @module
 */
import { Elysia } from "elysia";

/** The two spellings of the environment segment. */
export const ENVIRONMENT_SEGMENTS = ["environments", "projects"] as const;

/** One spelling of the environment segment. */
export type EnvironmentSegment = (typeof ENVIRONMENT_SEGMENTS)[number];

/**
 * Mounts a route plugin under `/environments/` and again under `/projects/`.
 * `build` receives the segment and must use it in its prefix or paths; it is
 * called once per spelling, so each copy has its own routes (and OpenAPI entries).
 */
export function environmentScoped(build: (segment: EnvironmentSegment) => Elysia<any, any, any, any, any, any, any>) {
  const plugin = new Elysia();
  for (const segment of ENVIRONMENT_SEGMENTS) plugin.use(build(segment));
  return plugin;
}
