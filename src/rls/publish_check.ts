/**
 * Row-level security at publish: the access rules of each source, stored with
 * the model metadata (`access` of a source: bound parameters and authorized
 * groups, including what it inherits through `extend` and reaches through
 * joins), and the checks that refuse a model whose `#(bind)` cannot work:
 * an unknown parameter, an attribute that is not declared or whose type
 * cannot fill the parameter, a bound `#@ persist` source.
 * @module
 */
import type { Explore } from "@malloydata/malloy";
import type { Db } from "../db/database.ts";
import type { CompiledModel, ModelMetadata } from "../engine/mod.ts";
import { badRequest } from "../http/errors.ts";
import { boundArgument, trustedIn } from "./enforce.ts";
import { type AccessRules, accessRules } from "./lineage.ts";

/** The access rules of a source as stored in its metadata. */
export interface SourceAccess {
  /** `#(bind)` pairs reached (the source's own, inherited, or of joined sources). */
  bindings: { source: string; parameter: string; attribute: string }[];
  /** Each entry: the caller must belong to one of these groups. */
  authorizeGroups: string[][];
}

/** The rules of every exported source of a compiled model, by source name. */
function sourceRules(compiled: CompiledModel): Map<string, { explore: Explore; rules: AccessRules }> {
  const out = new Map<string, { explore: Explore; rules: AccessRules }>();
  const trusted = trustedIn(compiled);
  for (const explore of compiled.model.exportedExplores) {
    out.set(explore.name, { explore, rules: accessRules(explore.structDef, compiled.model._modelDef, { trusted }) });
  }
  return out;
}

/** The model metadata with `access` on each source that has rules. */
export function withAccess(meta: ModelMetadata, compiled: CompiledModel): ModelMetadata {
  const rules = sourceRules(compiled);
  return {
    ...meta,
    sources: meta.sources.map((source) => {
      const r = rules.get(source.name)?.rules;
      if (!r || (r.bindings.length === 0 && r.authorize.length === 0)) return source;
      const access: SourceAccess = { bindings: r.bindings, authorizeGroups: r.authorize.map((a) => a.groups) };
      return { ...source, access };
    }),
  };
}

const SAMPLE: Record<string, unknown> = { string: "x", number: 1, boolean: true, string_list: ["x"] };

function isPersisted(explore: Explore): boolean {
  try {
    return (explore as unknown as { annotations: { parseAsTag(route: string): { tag: { has(name: string): boolean } } } })
      .annotations.parseAsTag("@").tag.has("persist");
  } catch {
    return false;
  }
}

/**
 * The problems of the models' `#(bind)` and `#(authorize)` annotations
 * against the organization's attributes (of the environment `envId`).
 */
async function accessProblems(db: Db, envId: string, models: Iterable<CompiledModel>): Promise<string[]> {
  const problems: string[] = [];
  const all = [...models].map((compiled) => ({ compiled, rules: sourceRules(compiled) }));
  const needed = new Set<string>();
  for (const m of all) for (const { rules } of m.rules.values()) for (const b of rules.bindings) needed.add(b.attribute);
  const types = new Map<string, string>();
  if (needed.size > 0) {
    const rows = await db`SELECT a.name, a.type FROM attributes a JOIN environments e ON e.org_id = a.org_id
                           WHERE e.id = ${envId} AND a.name = ANY(${[...needed]}::text[])`;
    for (const r of rows) types.set(r.name as string, r.type as string);
  }
  for (const { compiled, rules: bySource } of all) {
    for (const [name, { explore, rules }] of bySource) {
      const where = `${compiled.path}: source '${name}'`;
      for (const p of rules.problems) problems.push(`${compiled.path}: ${p}`);
      if (rules.bindings.length > 0 && isPersisted(explore)) {
        problems.push(`${where} is #@ persist and bound by #(bind) (${rules.bindings.map((b) => `${b.parameter}=${b.attribute}`).join(", ")}); a materialization would hold one caller's rows: remove #@ persist or the binding`);
      }
      const def = explore.structDef as { parameters?: Record<string, { type?: string; filterType?: string }>; arguments?: Record<string, { type?: string; filterType?: string }> };
      for (const b of rules.bindings.filter((x) => x.source === name)) {
        const param = def.parameters?.[b.parameter] ?? def.arguments?.[b.parameter];
        if (!param) {
          const known = Object.keys(def.parameters ?? {});
          problems.push(`${where}: #(bind) names parameter '${b.parameter}', which the source does not have (its parameters: ${known.length ? known.join(", ") : "none"})`);
          continue;
        }
        const type = types.get(b.attribute);
        if (!type) {
          problems.push(`${where}: #(bind) ${b.parameter}=${b.attribute} names attribute '${b.attribute}', which is not declared in the organization; declare it with PUT /organizations/{org}/attributes/${b.attribute}`);
          continue;
        }
        if (!boundArgument(SAMPLE[type], param)) {
          const paramType = param.type === "filter expression" ? `filter<${param.filterType ?? "string"}>` : param.type;
          problems.push(`${where}: attribute '${b.attribute}' (${type}) cannot fill parameter '${b.parameter}' (${paramType}); string fills string or filter<string>, number fills number, boolean fills boolean, string_list fills filter<string>`);
        }
      }
    }
  }
  return [...new Set(problems)];
}

/** 400 listing the problems, when there are any. */
export async function checkAccessAnnotations(db: Db, envId: string, models: Iterable<CompiledModel>): Promise<void> {
  const problems = await accessProblems(db, envId, models);
  if (problems.length > 0) {
    throw badRequest(`the model's row-level security annotations cannot work; fix these problems and publish again:\n${problems.join("\n")}`, {
      problems: problems.map((message) => ({ message })),
    });
  }
}
