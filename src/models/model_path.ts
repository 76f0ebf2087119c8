/**
 * The model path of a URL, checked and decoded (shared by the model routes and
 * the query arguments).
 * @module
 */
import { ValidationError } from "../errors.ts";

/**
 * Checks a model path of a URL: package-relative, forward slashes, no `..`
 * or empty segments, a `.malloy` or `.malloynb` file. Returns it decoded.
 */
export function checkModelPath(raw: string): string {
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    throw new ValidationError("modelPath is not valid URL encoding");
  }
  const segments = path.split("/");
  if (
    path.length === 0 || path.length > 1024 || path.includes("\\") || path.includes("\0") ||
    segments.some((s) => s === "" || s === "." || s === "..")
  ) {
    throw new ValidationError(`modelPath '${path}' must be a package-relative path without '..' or empty segments, e.g. models/flights.malloy`);
  }
  if (!/\.malloy(nb)?$/.test(path)) throw new ValidationError(`modelPath '${path}' must name a .malloy or .malloynb file`);
  return path;
}
