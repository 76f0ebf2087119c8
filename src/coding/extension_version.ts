/**
 * The supported-extension-version check of the coding API: is an editor
 * extension's version at least `EXTENSION_MIN_VERSION`, and is a newer one
 * (`EXTENSION_LATEST_VERSION`) available?
 * @module
 */

/** Result of {@link checkExtensionVersion}. */
export interface ExtensionVersionCheck {
  version: string;
  supported: boolean;
  minimum: string;
  latest: string;
  message: string;
}

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The `[major, minor, patch]` of a semantic version (`1.2.3`, `v1.2.3`, `1.2.3-beta.1`), or `null`. */
function parseVersion(version: string): [number, number, number] | null {
  const m = SEMVER.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b` (pre-release tags ignored). */
function compareVersions(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Checks a version against the configured bounds; `null` when `version` is
 * not a semantic version.
 */
export function checkExtensionVersion(version: string, bounds: { minimum: string; latest: string }): ExtensionVersionCheck | null {
  const v = parseVersion(version);
  const min = parseVersion(bounds.minimum);
  const latest = parseVersion(bounds.latest);
  if (!v || !min || !latest) return null;
  const supported = compareVersions(v, min) >= 0;
  const message = !supported
    ? `version ${version} is no longer supported; update the extension to ${bounds.latest} (at least ${bounds.minimum})`
    : compareVersions(v, latest) < 0
    ? `version ${version} is supported; version ${bounds.latest} is available`
    : `version ${version} is supported and up to date`;
  return { version: version.trim(), supported, minimum: bounds.minimum, latest: bounds.latest, message };
}
