/**
 * What a caller sees of `#(authorize)` and `#(bind)` sources outside queries:
 *
 * - models API: a source the caller may not query is hidden from viewers
 *   (with its named queries) and shown to modelers and admins of the package
 *   marked `authorized: false`; every other source is `authorized: true`;
 * - retrieval and `get_context`: entities of a source the caller may not
 *   query are hidden; indexed values of a bound source are never shown.
 *
 * Rules come from the `access` stored with each source at publish
 * (publish_check.ts); versions are immutable, so the rules of a version are
 * cached per process.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { ModelMetadata, SourceMetadata } from "../engine/mod.ts";
import { MODEL } from "../access/roles.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { effectiveValues, holderGroups } from "../attributes/effective.ts";
import type { CallerFacts } from "./caller_model.ts";
import { cachedGate, gateHolds } from "./gate_expression.ts";
import type { SourceAccess } from "./source_rules.ts";
import { latestVersion } from "../versions/store.ts";

type Stored = SourceMetadata & { access?: SourceAccess };
type StoredQuery = ModelMetadata["queries"][number] & { access?: SourceAccess };

/** Whether a caller's groups and givens satisfy every `#(authorize)` rule of a source (groups and gates). */
function mayQuery(access: SourceAccess | undefined, caller: CallerFacts): boolean {
  if (!access) return true;
  return access.authorizeGroups.every((set) => set.some((g) => caller.groups.has(g))) &&
    (access.gates ?? []).every((anyOf) => anyOf.some((text) => gateHolds(cachedGate(text), caller.values)));
}

/** Whether an access has a rule that depends on who asks. */
function authorizes(access: SourceAccess | undefined): boolean {
  return access !== undefined && (access.authorizeGroups.length > 0 || (access.gates?.length ?? 0) > 0);
}

/**
 * The caller's groups of one organization (`#(authorize)` names count only
 * there) and, when `accesses` have gates, the values of the attributes their
 * givens name (outside a query no request sets givens: a given that is no
 * attribute reads as unset, so such a gate does not hold here).
 */
async function callerFacts(db: Db, principal: Principal, orgId: string, accesses: Iterable<SourceAccess | undefined>): Promise<CallerFacts> {
  const key = principalKey(principal);
  const holder = { kind: key.kind, id: key.id };
  const givens = new Set<string>();
  for (const access of accesses) for (const anyOf of access?.gates ?? []) for (const text of anyOf) for (const g of cachedGate(text).givens) givens.add(g);
  const groups = new Set(await holderGroups(db, holder, orgId));
  const values = new Map<string, unknown>();
  if (givens.size > 0) for (const v of await effectiveValues(db, holder, { orgId, names: [...givens] })) values.set(v.name, v.value);
  return { groups, values };
}

/** The organization of an environment (that of the package whose model is shown). */
async function organizationOfEnvironment(db: Db, envId: string): Promise<string> {
  const [row] = await db<{ orgId: string }[]>`SELECT org_id AS "orgId" FROM environments WHERE id = ${envId}`;
  if (!row) throw new Error(`environment ${envId} does not exist`);
  return row.orgId;
}

/**
 * The model metadata as the caller may see it: hidden sources removed (for
 * callers below modeler) or marked `authorized: false`; `access` itself is
 * never shown.
 */
export async function visibleModel(db: Db, principal: Principal, meta: ModelMetadata, options: { rank: number; envId: string }): Promise<ModelMetadata> {
  const sources = meta.sources as Stored[];
  const queries = meta.queries as StoredQuery[];
  const accesses = [...sources, ...queries].map((s) => s.access);
  const caller: CallerFacts = accesses.some(authorizes)
    ? await callerFacts(db, principal, await organizationOfEnvironment(db, options.envId), accesses)
    : { groups: new Set(), values: new Map() };
  const hidden = new Set<string>();
  const shown: SourceMetadata[] = [];
  for (const { access, ...source } of sources) {
    const authorized = mayQuery(access, caller);
    if (!authorized && options.rank < MODEL) {
      hidden.add(source.name);
      continue;
    }
    shown.push({ ...source, authorized } as SourceMetadata);
  }
  const shownQueries: ModelMetadata["queries"] = [];
  for (const { access, ...query } of queries) {
    // a query's own rules (what it joins, whatever its source; stored since queries carry them), else its source's
    if (options.rank < MODEL && (!mayQuery(access, caller) || (query.sourceName !== undefined && hidden.has(query.sourceName)))) continue;
    shownQueries.push(query);
  }
  return { ...meta, sources: shown, queries: shownQueries };
}

/** The model list item's sources and queries the caller may see. */
export async function visibleNames(db: Db, principal: Principal, meta: ModelMetadata, options: { rank: number; envId: string }): Promise<{ sources: string[]; queries: string[] }> {
  const visible = await visibleModel(db, principal, meta, options);
  return { sources: visible.sources.map((s) => s.name), queries: visible.queries.map((q) => q.name) };
}

/** What retrieval may show of one version's sources to one caller. */
export interface VersionAccess {
  /** `modelPath#source` of sources the caller may not query. */
  hidden: Set<string>;
  /** `modelPath#source` of sources whose indexed values are never shown (bound). */
  noValues: Set<string>;
  /** `modelPath#query` of named queries the caller may not run (what they reach, whatever their source). */
  hiddenQueries: Set<string>;
}

interface VersionRules {
  /** The organization of the version's package (null for a version without rules). */
  orgId: string | null;
  sources: { key: string; access: SourceAccess }[];
  /** Named queries with rules of their own (versions published since queries carry them). */
  queries: { key: string; access: SourceAccess }[];
}

const rulesCache = new Map<string, VersionRules>();
const RULES_CACHE_LIMIT = 512;

async function versionRules(db: Db, versions: readonly string[]): Promise<Map<string, VersionRules>> {
  const missing = versions.filter((v) => !rulesCache.has(v));
  if (missing.length > 0) {
    const rows = await db`
      SELECT vm.version, vm.model_path, x.kind, x.entry->>'name' AS name, x.entry->'access' AS access, e.org_id
        FROM version_models vm
        CROSS JOIN LATERAL (
          SELECT 'source' AS kind, s AS entry FROM jsonb_array_elements(vm.metadata->'sources') s
          UNION ALL
          SELECT 'query', q FROM jsonb_array_elements(coalesce(vm.metadata->'queries', '[]'::jsonb)) q) x
        JOIN package_versions v ON v.id = vm.version JOIN packages p ON p.id = v.package_id JOIN environments e ON e.id = p.env_id
       WHERE vm.version = ANY(${missing}::uuid[]) AND x.entry ? 'access'`;
    for (const v of missing) rulesCache.set(v, { orgId: null, sources: [], queries: [] });
    for (const r of rows) {
      const access = (typeof r.access === "string" ? JSON.parse(r.access) : r.access) as SourceAccess;
      const rules = rulesCache.get(r.version as string)!;
      rules.orgId = r.org_id as string;
      (r.kind === "query" ? rules.queries : rules.sources).push({ key: `${r.model_path}#${r.name}`, access });
    }
    while (rulesCache.size > RULES_CACHE_LIMIT) rulesCache.delete(rulesCache.keys().next().value!);
  }
  return new Map(versions.map((v) => [v, rulesCache.get(v) ?? { orgId: null, sources: [], queries: [] }]));
}

/**
 * Whether a version (by row uuid) has a source with `#(authorize)` or
 * `#(bind)`: its files then hold rows some callers may not read.
 */
export async function versionRestricted(db: Db, version: string): Promise<boolean> {
  const rules = (await versionRules(db, [version])).get(version)!;
  return rules.sources.some((s) => s.access.bindings.length > 0 || authorizes(s.access));
}

/** What a watch-mode compile error says to a caller who may not read its problems (see {@link compileProblemsWithheld}). */
export const WITHHELD_COMPILE_ERROR =
  "the package's models do not compile; its problems are shown to package modelers and admins, as the package has sources restricted by #(authorize) or #(bind)";

/**
 * Whether a caller with `rank` on a package may not read the problems of its
 * models' compile errors (watch mode): they quote the models' field names,
 * which for a source restricted by `#(authorize)` or `#(bind)` the models API
 * and retrieval keep from callers below modeler (its files and zip go to
 * modelers and admins only). True below modeler when the package's newest
 * version has such a source.
 */
export async function compileProblemsWithheld(db: Db, where: { rank: number; packageId: string }): Promise<boolean> {
  if (where.rank >= MODEL) return false;
  const latest = await latestVersion(db, where.packageId);
  return latest !== null && (await versionRestricted(db, latest.uuid));
}

/**
 * Whether a version (by row uuid) has a source or named query behind
 * `#(authorize)`, by the rules stored at publish (cached per process): only
 * then may a caller be kept from some of its sources.
 */
export async function versionAuthorizes(db: Db, version: string): Promise<boolean> {
  const rules = (await versionRules(db, [version])).get(version)!;
  return [...rules.sources, ...rules.queries].some((s) => authorizes(s.access));
}

/**
 * Per version (by row uuid), what the caller may not see; versions without
 * rules are absent (nothing to filter). One statement for uncached versions,
 * one for the caller's groups when a rule needs them.
 */
export async function retrievalAccess(db: Db, principal: Principal, versions: readonly string[]): Promise<Map<string, VersionAccess>> {
  const rules = await versionRules(db, versions);
  const out = new Map<string, VersionAccess>();
  // the caller's groups per organization: a version's rules count the groups of its own organization only
  const factsOf = new Map<string, CallerFacts>();
  for (const [version, r] of rules) {
    if (r.sources.length === 0 && r.queries.length === 0) continue;
    const access: VersionAccess = { hidden: new Set(), noValues: new Set(), hiddenQueries: new Set() };
    const refused = async (rule: SourceAccess): Promise<boolean> => {
      if (!authorizes(rule)) return false;
      let facts = factsOf.get(r.orgId!);
      if (!facts) {
        // one read per organization, for the gates of all its versions asked about
        const accesses = [...rules.values()].filter((x) => x.orgId === r.orgId).flatMap((x) => [...x.sources, ...x.queries].map((y) => y.access));
        factsOf.set(r.orgId!, facts = await callerFacts(db, principal, r.orgId!, accesses));
      }
      return !mayQuery(rule, facts);
    };
    for (const s of r.sources) {
      if (s.access.bindings.length > 0) access.noValues.add(s.key);
      if (await refused(s.access)) access.hidden.add(s.key);
    }
    for (const q of r.queries) if (await refused(q.access)) access.hiddenQueries.add(q.key);
    out.set(version, access);
  }
  return out;
}

/** What a caller sees of something runs built from a source (an index, a materialization, a run unit): nothing, it without its data, or all of it. */
export type BuiltView = "hidden" | "no-data" | "full";

/**
 * How the APIs of what runs built (indexes, materializations, runs) show
 * them to one caller, per version and `modelPath#source` (the rule of
 * {@link retrievalAccess}, and of the models API for names): the data of a
 * source the caller may not query (index values, row and value counts,
 * error texts quoting rows), or of a bound one, is never shown; callers
 * below modeler do not see what was built from a source they may not query
 * at all (its name is hidden from them).
 */
export async function builtViews(db: Db, principal: Principal, where: { versionUuids: readonly string[]; rank: number }): Promise<(versionUuid: string, modelPath: string, source: string) => BuiltView> {
  const access = await retrievalAccess(db, principal, [...new Set(where.versionUuids)]);
  return (versionUuid, modelPath, source) => {
    const rules = access.get(versionUuid);
    const key = `${modelPath}#${source}`;
    if (rules?.hidden.has(key)) return where.rank < MODEL ? "hidden" : "no-data";
    return rules?.noValues.has(key) ? "no-data" : "full";
  };
}
