/**
 * The URLs Malloy knows a package's files by (`file://<package folder>/...`),
 * and back. Pure, so the compile worker uses it too.
 * @module
 */

/** The base URL of a package folder (an absolute path), ending in `/`. */
export function packageBaseUrl(dir: string): URL {
  return new URL(`file://${encodeURI(dir)}/`);
}

/**
 * The package-relative path of `url` under `base`; `undefined` when it is not
 * a file of the package (another scheme or host, outside the folder, `..` or
 * empty segments).
 */
export function packageRelativePath(url: URL, base: URL): string | undefined {
  if (url.protocol !== "file:" || url.host !== "" || !url.pathname.startsWith(base.pathname)) {
    return undefined;
  }
  const path = decodeURIComponent(url.pathname.slice(base.pathname.length));
  return path.split("/").some((s) => s === ".." || s === "") ? undefined : path;
}

/** The package-relative path of a Malloy URL under `base`, or the URL itself when outside. */
export function packageFileOf(url: string, base: URL): string {
  try {
    return packageRelativePath(new URL(url), base) ?? url;
  } catch {
    return url;
  }
}
