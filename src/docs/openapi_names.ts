/**
 * The OpenAPI document as the specification names it, made from what the
 * routes generate (URLs do not change; only the document does):
 *
 * - paths are written without a trailing slash, as clients call them;
 * - path parameters `{org}`, `{env}`, `{pkg}` are named `organizationName`,
 *   `projectName` (an environment) and `packageName`, as the specification's
 *   path identifiers are (`versionId` already is);
 * - every `/projects/` path, an alias of the `/environments/` one that the
 *   same handler serves, is folded into it, so each operation is listed
 *   once (its description says the alias is served too); the one exception
 *   is the specification's update-version operation, listed at its own
 *   `/projects/` path (the `/environments/` spelling is noted on it);
 * - `Error.code` is the enumeration of the codes the service emits.
 * @module
 */
import { ERROR_CODES } from "../http/errors.ts";

/** Route parameter name -> the specification's name. */
const PARAMETER_NAMES: Record<string, string> = { org: "organizationName", env: "projectName", pkg: "packageName" };

/** The update-version operation of the specification, the one listed at its `/projects/` path. */
const SEED_PATH = "/api/v0/organizations/{organizationName}/projects/{projectName}/packages/{packageName}/versions/{versionId}";
const SEED_METHOD = "patch";

const METHODS = ["get", "put", "post", "delete", "patch", "options", "head"];

type Operation = { parameters?: { name: string; in: string }[]; description?: string };
type PathItem = Record<string, Operation>;

function renamePath(path: string): string {
  // a collection route is written `prefix + "/"`; its URL is the prefix (the router answers both)
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path.replace(/\{([^}]+)\}/g, (whole, name: string) => (PARAMETER_NAMES[name] ? `{${PARAMETER_NAMES[name]}}` : whole));
}

function renameParameters(item: PathItem): PathItem {
  for (const method of METHODS) {
    for (const p of item[method]?.parameters ?? []) if (p.in === "path" && PARAMETER_NAMES[p.name]) p.name = PARAMETER_NAMES[p.name]!;
  }
  return item;
}

function note(op: Operation, text: string): void {
  op.description = op.description ? `${op.description}\n\n${text}` : text;
}

/** The `/environments/` path a `/projects/` alias stands for, or null for a path that is no alias. */
function canonicalOf(path: string): string | null {
  const m = path.match(/^(\/api\/v0\/organizations\/\{organizationName\})\/projects(\/.*)?$/);
  return m ? `${m[1]}/environments${m[2] ?? ""}` : null;
}

/**
 * Renames path parameters, folds the `/projects/` aliases and sets the
 * `Error.code` enumeration of an OpenAPI document (in place); returns how
 * many alias operations were folded.
 */
export function specificationNames(doc: { paths?: Record<string, PathItem>; components?: Record<string, Record<string, unknown>> }): number {
  const renamed: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const name = renamePath(path);
    renamed[name] = { ...renamed[name], ...renameParameters(item) };
  }
  let folded = 0;
  for (const [path, item] of Object.entries(renamed)) {
    const canonical = canonicalOf(path);
    if (!canonical) continue;
    const target = renamed[canonical];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (path === SEED_PATH && method === SEED_METHOD && target?.[method]) {
        note(op, `Also served at \`${canonical}\` (environments are called projects in this path, as the specification writes it).`);
        delete target[method];
        continue;
      }
      if (target?.[method]) {
        note(target[method]!, `Also served at \`${path}\` (the \`/projects/\` spelling of \`/environments/\`).`);
        delete item[method];
        folded++;
      }
    }
    if (!METHODS.some((m) => item[m])) delete renamed[path];
  }
  for (const [path, item] of Object.entries(renamed)) if (!METHODS.some((m) => item[m])) delete renamed[path];
  doc.paths = renamed;
  const error = doc.components?.schemas?.Error as { properties?: { code?: Record<string, unknown> } } | undefined;
  if (error?.properties?.code) error.properties.code = { ...error.properties.code, enum: [...ERROR_CODES] };
  return folded;
}
