/**
 * The model as one caller may query it: the model definition a query
 * compiles against, without the sources and named queries that reach an
 * `#(authorize)` source the caller is outside of (directly, through
 * `extend`, joins or query sources: the rules of ./lineage.ts).
 *
 * Compiled against the whole model, a query's problems described what the
 * caller may not see: `payroll -> { group_by: nosuch }` answered "'nosuch' is
 * not defined" where a real field answered 403, so a viewer outside the group
 * could list the source's fields and their types one guess at a time, and a
 * `queryName` or `sourceName` that did not exist was answered with the names
 * of every source, view and named query of the model. Against this
 * definition such names do not exist: nothing a problem says can be about
 * them. A query that names one is refused as querying it is (403, with the
 * message of the rule; see {@link hiddenReference}).
 * @module
 */
import { isSourceDef, type ModelDef } from "@malloydata/malloy";
import type { CompiledModel } from "../engine/mod.ts";
import { accessRules } from "./lineage.ts";
import type { AccessRules } from "./rule_notes.ts";
import { declaredOf, trustedBy } from "./source_rules.ts";
import { cachedGate, gateHolds } from "./gate_expression.ts";

/**
 * An `#(authorize)` rule: the caller must belong to one of `groups`, or
 * (a gate over givens) one of the expressions `anyOf` must hold.
 */
export type AuthorizeRule = AccessRules["authorize"][number] | AccessRules["gates"][number];

/** What decides a caller's rules: its groups, and the values of the givens gates read. */
export interface CallerFacts {
  groups: ReadonlySet<string>;
  values: ReadonlyMap<string, unknown>;
}

/** Whether a caller satisfies a rule. */
function satisfies(rule: AuthorizeRule, caller: CallerFacts): boolean {
  if ("groups" in rule) return rule.groups.some((g) => caller.groups.has(g));
  return rule.anyOf.some((text) => gateHolds(cachedGate(text), caller.values));
}

/** Per model definition: the `#(authorize)` rules each of its sources and named queries reaches (only those with rules). */
const rulesByDef = new WeakMap<ModelDef, Map<string, AuthorizeRule[]>>();

/** The rules of every source and named query of a definition that reaches an `#(authorize)` source, computed once. */
function authorizeRules(compiled: CompiledModel, def: ModelDef): Map<string, AuthorizeRule[]> {
  let rules = rulesByDef.get(def);
  if (rules) return rules;
  rules = new Map();
  const trusted = trustedBy(compiled.pkg.fileOf);
  const declared = declaredOf(compiled);
  for (const [name, entry] of Object.entries(def.contents)) {
    if (!isSourceDef(entry) && entry.type !== "query") continue;
    const reached = accessRules(entry, def, { trusted, declared });
    const authorize: AuthorizeRule[] = [...reached.authorize, ...reached.gates];
    if (authorize.length > 0) rules.set(name, authorize);
  }
  rulesByDef.set(def, rules);
  return rules;
}

/** Whether a definition has a source or named query behind `#(authorize)`: only then are the caller's groups needed. */
export function hasAuthorizeRules(compiled: CompiledModel, def: ModelDef): boolean {
  return authorizeRules(compiled, def).size > 0;
}

/** A definition as one caller may query it, and what was left out of it. */
export interface CallerModel {
  def: ModelDef;
  /** Names left out, each with the first rule the caller does not satisfy. */
  hidden: ReadonlyMap<string, AuthorizeRule>;
}

/** Definitions without some names, per whole definition and set of names left out (a few sets per model: one per group membership). */
const reduced = new WeakMap<ModelDef, Map<string, CallerModel>>();
const REDUCED_PER_DEF = 64;

/**
 * The definition `def` (a compiled model's query definition) as a caller in
 * `caller` (its groups of the package's organization, its givens) may query it: every
 * source and named query reaching a rule the caller fails is left out of
 * its contents and exports. The same object for the same names left out, so
 * compiled queries are cached per caller view (src/engine/query/prepare.ts).
 */
export function callerModel(compiled: CompiledModel, def: ModelDef, caller: CallerFacts): CallerModel {
  const hidden = new Map<string, AuthorizeRule>();
  for (const [name, rules] of authorizeRules(compiled, def)) {
    const failed = rules.find((rule) => !satisfies(rule, caller));
    if (failed) hidden.set(name, failed);
  }
  if (hidden.size === 0) return { def, hidden };
  const key = [...hidden.keys()].sort().join("\u0000");
  let views = reduced.get(def);
  if (!views) reduced.set(def, views = new Map());
  const known = views.get(key);
  if (known) return known;
  const contents = { ...def.contents };
  for (const name of hidden.keys()) delete contents[name];
  const made: CallerModel = { def: { ...def, contents, exports: def.exports.filter((name) => !hidden.has(name)) }, hidden };
  if (views.size >= REDUCED_PER_DEF) views.delete(views.keys().next().value!);
  views.set(key, made);
  return made;
}

/** What a query named: its text's problems (code and message), or the source and query names of a named run. */
export interface QueryReference {
  problems?: readonly { code?: string; message: string }[];
  sourceName?: string;
  queryName?: string;
}

const UNDEFINED_OBJECT = /^Reference to undefined object '(.+)'$/;

/**
 * The rule of a name left out of a caller's model that a failed query
 * names, or `undefined`: a `sourceName` or `queryName` of a named run, or an
 * undefined object of the text's problems (Malloy's
 * `source-or-query-not-found` for a query's source, `source-not-found` for a
 * join's). The caller is then refused as for querying it, not told that it
 * does not exist.
 */
export function hiddenReference(model: CallerModel, reference: QueryReference): AuthorizeRule | undefined {
  if (model.hidden.size === 0) return undefined;
  for (const name of [reference.sourceName, reference.queryName]) {
    if (name !== undefined && model.hidden.has(name)) return model.hidden.get(name);
  }
  for (const problem of reference.problems ?? []) {
    // `source-or-query-not-found` (a query's source), `source-not-found` (a join's), ...
    if (!problem.code?.endsWith("-not-found")) continue;
    const name = UNDEFINED_OBJECT.exec(problem.message)?.[1];
    if (name !== undefined && model.hidden.has(name)) return model.hidden.get(name);
  }
  return undefined;
}
