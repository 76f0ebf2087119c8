/**
 * The one enforcement point of row-level security, called by the query
 * runner (src/query/service.ts) for every query of every path (REST, MCP,
 * in-package apps), after the query compiled and before SQL is generated:
 *
 * 1. reads the rules the compiled query reaches ({@link accessRules});
 * 2. refuses query text that sets a bound parameter itself (`400`);
 * 3. refuses callers outside every group of an `#(authorize)` source
 *    (`403`, organization and system admins included);
 * 4. fills every bound parameter from the caller's effective value
 *    (`403` naming the attribute when it is null) and answers the query to run.
 * @module
 */
import type { ModelDef, PreparedQuery } from "@malloydata/malloy";
import { type CompiledModel, type GivenInput, ownedLru, queryWithGivens } from "../engine/mod.ts";
import type { Db } from "../db/database.ts";
import { ForbiddenError, ValidationError } from "../errors.ts";
import { principalKey, type Principal, principalLabel } from "../access/principal.ts";
import { type EffectiveValue, effectiveValues, type Holder, holderGroups } from "../attributes/effective.ts";
import { accessRules, type BoundArgument, fillBindings } from "./lineage.ts";
import { type AccessRules, hasRules } from "./rule_notes.ts";
import { cachedGate, gateHolds } from "./gate_expression.ts";
import { type CallerGivens, callerGivens } from "./givens.ts";
import { BarrierRefused } from "./barrier.ts";
import type { AuthorizeRule } from "./caller_model.ts";
import { sourceArgumentNames } from "./query_text.ts";
import { declaredOf, trustedBy } from "./source_rules.ts";

/** Who runs a query, in which organization. */
export interface QueryCaller {
  principal: Principal;
  orgId: string;
}

/** What {@link authorizeQuery} answers. */
export interface AuthorizedQuery {
  query: PreparedQuery;
  /** Attributes whose values filled parameters. */
  boundAttributes: string[];
  /** The model's sources the query reaches. */
  sources: string[];
}

/** Options of {@link authorizeQuery}. */
export interface AuthorizeQueryOptions {
  /** The model the query compiled against (with `defined` when it is a rewrite of the package's definition). */
  compiled: CompiledModel;
  /** The query text the caller sent, when it sent text. */
  text?: string;
  /**
   * The caller's effective values read earlier in this request (the query
   * target's statement); used when they cover every bound attribute, else
   * the values are read here.
   */
  prefetched?: EffectiveValue[];
  /** The caller's groups read earlier in this request ({@link callerGroups}); read here when absent and needed. */
  groups?: ReadonlySet<string>;
  /** Values of the model's givens the request sets (`givens`); a given filled from a trusted attribute cannot be set (`400`). */
  givens?: Record<string, unknown>;
  /** The caller's givens read earlier in this request (for the caller's model); read here when absent. */
  readGivens?: CallerGivens;
}

/** The refusal of a caller outside every group of an `#(authorize)` rule, or for whom no gate of it holds (403). */
export function notAuthorized(caller: QueryCaller, rule: AuthorizeRule): ForbiddenError {
  if (!("groups" in rule)) {
    return new ForbiddenError(`source '${rule.source}' may be queried only by callers for whom one of its #(authorize) expressions holds (${rule.anyOf.map((e) => `"${e}"`).join(" or ")}); none holds for ${principalLabel(caller.principal)}`);
  }
  return new ForbiddenError(`source '${rule.source}' may be queried only by members and API keys of the groups ${rule.groups.map((g) => `'${g}'`).join(", ")}; ${principalLabel(caller.principal)} is in none of them`);
}

/** The caller's groups of the package's organization (the names `#(authorize)` counts). */
export async function callerGroups(db: Db, caller: QueryCaller): Promise<Set<string>> {
  return new Set(await holderGroups(db, holderOf(caller.principal), caller.orgId));
}

/** Whether a Malloy URL is a file of the package (annotations there are trusted; query text is not). */
function trustedIn(compiled: CompiledModel): (url: string) => boolean {
  return trustedBy(compiled.pkg.fileOf);
}

/** The rules a compiled query reaches (for dry runs, logs and checks). */
export function rulesOfQuery(compiled: CompiledModel, query: PreparedQuery): AccessRules {
  return accessRules(query._query, query._modelDef, { trusted: trustedIn(compiled), declared: declaredOf(compiled) });
}

function holderOf(principal: Principal): Holder {
  const key = principalKey(principal);
  return { kind: key.kind, id: key.id };
}

/** Turns an effective value into the argument of a parameter of `type`; null when it cannot fill it. */
export function boundArgument(value: unknown, param: { type?: string; filterType?: string }): BoundArgument | null {
  const type = param.type ?? "string";
  if (type === "string" && typeof value === "string") return { type, value: { node: "stringLiteral", literal: value } };
  if (type === "number" && typeof value === "number" && Number.isFinite(value)) return { type, value: { node: "numberLiteral", literal: String(value) } };
  if (type === "boolean" && typeof value === "boolean") return { type, value: { node: value ? "true" : "false" } };
  if (type === "filter expression" && (param.filterType ?? "string") === "string") {
    const list = typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : null;
    if (!list || list.length === 0) return null;
    // every character escaped: `\X` is X in Malloy's string filter language, so no value can add an operator
    const filterSrc = list.map((v) => [...v].map((c) => `\\${c}`).join("")).join(", ");
    return { type, filterType: "string", value: { node: "filterLiteral", filterSrc } };
  }
  return null;
}

/** The declared parameter of a bound source (its own, or the argument a derived source carries). */
function parameterOf(modelDef: unknown, source: string, parameter: string): { type?: string; filterType?: string } | undefined {
  const def = (modelDef as ModelDef).contents?.[source] as { parameters?: Record<string, object>; arguments?: Record<string, object> } | undefined;
  return (def?.parameters?.[parameter] ?? def?.arguments?.[parameter]) as { type?: string; filterType?: string } | undefined;
}

/**
 * Authorizes a compiled query for a caller and fills its bound parameters
 * and givens. Throws `400` (a bound parameter or trusted given set by the
 * request) or `403` (not in an authorized group; no gate holds; a bound
 * attribute without value).
 */
export async function authorizeQuery(db: Db, caller: QueryCaller, query: PreparedQuery, options: AuthorizeQueryOptions): Promise<AuthorizedQuery> {
  const rules = rulesOfQuery(options.compiled, query);
  const sources = rules.sources;
  const model = query.model;
  const givens = options.readGivens ??
    (model.givens.size > 0 || Object.keys(options.givens ?? {}).length > 0 ? await callerGivens(db, caller, model, options.givens) : undefined);
  if (!hasRules(rules) && !givens) return { query, boundAttributes: [], sources };
  if (options.text !== undefined && rules.bindings.length > 0) {
    const bound = new Map(rules.bindings.map((b) => [b.parameter, b]));
    // an argument naming a parameter spells its name: text without any bound name sets none (no parse needed)
    const mentioned = [...bound.keys()].some((name) => options.text!.includes(name));
    const set = mentioned ? sourceArgumentNames(options.text).find((name) => bound.has(name)) : undefined;
    if (set) {
      const b = bound.get(set)!;
      throw new ValidationError(`parameter '${set}' of source '${b.source}' is bound to the attribute '${b.attribute}' and filled from the caller's trusted attributes; remove '${set}' from the query text`);
    }
  }
  if (rules.authorize.length > 0) {
    const groups = options.groups ?? await callerGroups(db, caller);
    for (const rule of rules.authorize) {
      if (!rule.groups.some((g) => groups.has(g))) throw notAuthorized(caller, rule);
    }
  }
  for (const gate of rules.gates) {
    if (!gate.anyOf.some((text) => gateHolds(cachedGate(text), givens?.values ?? new Map()))) throw notAuthorized(caller, gate);
  }
  const filled = rules.bindings.length > 0 ? await bindingValues(db, caller, { query, rules, prefetched: options.prefetched }) : new Map<string, BoundArgument>();
  const trustedGivens = givens?.trustedIds ?? new Set<string>();
  let out = filled.size > 0 || (rules.givenFilters && trustedGivens.size > 0) ? boundQuery(options.compiled, query, { filled, trustedGivens }) : query;
  if (givens && Object.keys(givens.supplied).length > 0) out = givenQuery(out, givens.supplied);
  return { query: out, boundAttributes: [...new Set([...filled.keys(), ...(givens?.attributes ?? [])])], sources };
}

/** The caller's argument of every bound parameter, by attribute (`403` when a value is missing, `400` when its type cannot fill). */
async function bindingValues(db: Db, caller: QueryCaller, what: { query: PreparedQuery; rules: AccessRules; prefetched?: EffectiveValue[] }): Promise<Map<string, BoundArgument>> {
  const { query, rules } = what;
  const attributes = [...new Set(rules.bindings.map((b) => b.attribute))];
  const prefetched = new Map((what.prefetched ?? []).map((v) => [v.name, v]));
  const read = attributes.every((a) => prefetched.has(a))
    ? attributes.map((a) => prefetched.get(a)!)
    : await effectiveValues(db, holderOf(caller.principal), { orgId: caller.orgId, names: attributes });
  const values = new Map(read.map((v) => [v.name, v]));
  const filled = new Map<string, BoundArgument>();
  for (const b of rules.bindings) {
    const effective = values.get(b.attribute);
    if (!effective || effective.value === null || (Array.isArray(effective.value) && effective.value.length === 0)) {
      throw new ForbiddenError(`attribute '${b.attribute}' has no value for ${principalLabel(caller.principal)}, and source '${b.source}' is bound to it (#(bind) ${b.parameter}=${b.attribute}); an organization admin can set it with PUT .../attributes/${b.attribute}/users/{userName} or .../groups/{group}`);
    }
    const param = parameterOf(query._modelDef, b.source, b.parameter) ?? { type: effective.type === "string_list" ? "filter expression" : effective.type };
    const argument = boundArgument(effective.value, param);
    if (!argument) {
      throw new ValidationError(`attribute '${b.attribute}' (${effective.type}) cannot fill parameter '${b.parameter}' (${param.type}) of source '${b.source}'; the model's #(bind) must name an attribute of a matching type`);
    }
    if (filled.has(b.attribute) && filled.get(b.attribute)!.type !== argument.type) {
      throw new ValidationError(`attribute '${b.attribute}' fills parameters of different types; bind it to parameters of one type`);
    }
    filled.set(b.attribute, argument);
  }
  return filled;
}

/** Queries with givens kept per query object (most recently used last). */
const givenQueries = ownedLru<PreparedQuery, PreparedQuery>(256);

/** The query generating its SQL with these givens: one object per query and set of values, so its SQL is generated once. */
function givenQuery(query: PreparedQuery, supplied: Record<string, GivenInput>): PreparedQuery {
  const key = JSON.stringify(Object.entries(supplied).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const hit = givenQueries.get(query, key);
  if (hit) return hit;
  const made = queryWithGivens(query, supplied);
  givenQueries.set(query, key, made);
  return made;
}

/** Bound queries kept per compiled query (most recently used last). */
const BOUND_ENTRIES = 256;

/**
 * The compiled query with its bound parameters filled by exactly these
 * values, per compiled query object: the engine generates the SQL of a query
 * object once (src/engine/query/prepare.ts), so a query bound to one set of values is
 * rewritten and turned into SQL once and is never answered for other values.
 * The key is every attribute's argument (type and literal), in a fixed order.
 */
const boundQueries = ownedLru<PreparedQuery, PreparedQuery>(BOUND_ENTRIES);

function boundQuery(compiled: CompiledModel, query: PreparedQuery, values: { filled: Map<string, BoundArgument>; trustedGivens: ReadonlySet<string> }): PreparedQuery {
  const { filled, trustedGivens } = values;
  const key = JSON.stringify([[...filled].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), [...trustedGivens].sort()]);
  const hit = boundQueries.get(query, key);
  if (hit) return hit;
  let rewritten: unknown;
  try {
    rewritten = fillBindings(query._query, query._modelDef, { trusted: trustedIn(compiled), values: filled, trustedGivens });
  } catch (error) {
    if (error instanceof BarrierRefused) throw new ValidationError(error.message);
    throw error;
  }
  const Prepared = query.constructor as new (q: unknown, model: unknown, problems: unknown, name?: string) => PreparedQuery;
  const model = (query as unknown as { _model: unknown })._model;
  const bound = new Prepared(rewritten, model, query.problems, query.name);
  boundQueries.set(query, key, bound);
  return bound;
}

const placeholders = new WeakMap<CompiledModel, ModelDef>();

/**
 * The model definition queries compile against: the compiled model's, except
 * that a bound parameter without a default gets a null default, so
 * `orders -> {...}` compiles and the caller's value is filled in afterwards.
 */
export function queryModelDef(compiled: CompiledModel): ModelDef {
  let def = placeholders.get(compiled);
  if (def) return def;
  def = compiled.model._modelDef;
  const trusted = trustedIn(compiled);
  let changed: ModelDef | undefined;
  for (const [name, entry] of Object.entries(def.contents)) {
    const params = (entry as { parameters?: Record<string, { value: unknown }> }).parameters;
    if (!params || !Object.values(params).some((p) => p.value === null)) continue;
    const rules = accessRules(entry, def, { trusted });
    const bound = new Set(rules.bindings.map((b) => b.parameter));
    if (!Object.entries(params).some(([p, v]) => v.value === null && bound.has(p))) continue;
    changed ??= { ...def, contents: { ...def.contents } };
    const copy = { ...entry, parameters: { ...params } } as typeof entry & { parameters: Record<string, { value: unknown }> };
    for (const [p, v] of Object.entries(params)) if (v.value === null && bound.has(p)) copy.parameters[p] = { ...v, value: { node: "null" } };
    changed.contents[name] = copy;
  }
  def = changed ?? def;
  placeholders.set(compiled, def);
  return def;
}
