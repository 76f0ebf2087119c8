/**
 * Environment-scoped routes are served under both `/organizations/:org/environments`
 * and `/organizations/:org/projects` (the seed's update-version path says projects).
 * @module
 */
import { type AnyElysia, Elysia } from "elysia";

/** The two prefixes of environment-scoped routes. */
const ENVIRONMENT_PREFIXES = ["/organizations/:org/environments", "/organizations/:org/projects"] as const;

/**
 * Registers a plugin built for a prefix under both spellings of the
 * environment collection. `build` gets the prefix and returns the plugin.
 */
export function environmentScoped(build: (prefix: string) => AnyElysia): AnyElysia {
  return new Elysia().use(build(ENVIRONMENT_PREFIXES[0])).use(build(ENVIRONMENT_PREFIXES[1]));
}
