/**
 * Row-level security at publish: the access rules of each source, stored with
 * the model metadata (`access` of a source: bound parameters and authorized
 * groups, including what it inherits through `extend` and reaches through
 * joins), and the checks that refuse a model whose `#(bind)` cannot work:
 * an unknown parameter, an attribute that is not declared or whose type
 * cannot fill the parameter, a bound `#@ persist` source; and the warnings
 * for gates a request decides (a gate over a given no attribute fills).
 * @module
 */
import type { Db } from "../db/database.ts";
import { ValidationError } from "../errors.ts";
import { boundArgument } from "./enforce.ts";
import { parseGate } from "./gate_expression.ts";
import type { SourceAccessFacts } from "./source_rules.ts";

/** A model's access facts, as the compile worker answered them at publish. */
export interface ModelAccessFacts {
  /** Package-relative path of the model file. */
  path: string;
  sources: SourceAccessFacts[];
}

const SAMPLE: Record<string, unknown> = { string: "x", number: 1, boolean: true, string_list: ["x"] };

/**
 * The problems of the models' `#(bind)` and `#(authorize)` annotations
 * against the organization's attributes (of the environment `envId`).
 */
async function accessProblems(db: Db, envId: string, models: Iterable<ModelAccessFacts>): Promise<string[]> {
  const problems: string[] = [];
  const all = [...models];
  const needed = new Set<string>();
  for (const m of all) for (const { rules } of m.sources) for (const b of rules.bindings) needed.add(b.attribute);
  const types = new Map<string, string>();
  if (needed.size > 0) {
    const rows = await db`SELECT a.name, a.type FROM attributes a JOIN environments e ON e.org_id = a.org_id
                           WHERE e.id = ${envId} AND a.name = ANY(${[...needed]}::text[])`;
    for (const r of rows) types.set(r.name as string, r.type as string);
  }
  for (const model of all) {
    for (const { name, rules, persist, parameters, arguments: given } of model.sources) {
      const where = `${model.path}: source '${name}'`;
      for (const p of rules.problems) problems.push(`${model.path}: ${p}`);
      if (rules.bindings.length > 0 && persist) {
        problems.push(`${where} is #@ persist and bound by #(bind) (${rules.bindings.map((b) => `${b.parameter}=${b.attribute}`).join(", ")}); a materialization would hold one caller's rows: remove #@ persist or the binding`);
      }
      for (const b of rules.bindings.filter((x) => x.source === name)) {
        const param = parameters[b.parameter] ?? given[b.parameter];
        if (!param) {
          const known = Object.keys(parameters);
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

/** A ValidationError listing the problems (`details.problems`), when there are any. */
export async function checkAccessAnnotations(db: Db, envId: string, models: Iterable<ModelAccessFacts>): Promise<void> {
  const problems = await accessProblems(db, envId, models);
  if (problems.length > 0) {
    throw new ValidationError(`the model's row-level security annotations cannot work; fix these problems and publish again:\n${problems.join("\n")}`, {
      problems: problems.map((message) => ({ message })),
    });
  }
}

/**
 * Warnings for `#(authorize) "<expression>"` gates that read a given no
 * attribute of the organization fills: such a given keeps Malloy's
 * behaviour (the request sets it), so any caller who may query the package
 * opens the gate by sending the value it tests. The publish succeeds (it is
 * Publisher's semantics); the warnings say what to declare.
 */
export async function accessWarnings(db: Db, envId: string, models: Iterable<ModelAccessFacts>): Promise<string[]> {
  const read = new Map<string, Set<string>>(); // "model: source 'x'" -> givens its gates read
  for (const model of models) {
    for (const { name, rules } of model.sources) {
      for (const gate of rules.gates) {
        for (const expression of gate.anyOf) {
          let givens: string[];
          try {
            givens = parseGate(expression).givens;
          } catch {
            continue; // a gate that does not parse is a publish problem, reported by checkAccessAnnotations
          }
          const key = `${model.path}: source '${name}'`;
          for (const given of givens) (read.get(key) ?? read.set(key, new Set()).get(key)!).add(given);
        }
      }
    }
  }
  const names = [...new Set([...read.values()].flatMap((g) => [...g]))];
  if (names.length === 0) return [];
  const rows = await db`SELECT a.name FROM attributes a JOIN environments e ON e.org_id = a.org_id
                         WHERE e.id = ${envId} AND a.name = ANY(${names}::text[])`;
  const declared = new Set(rows.map((r) => r.name as string));
  const warnings: string[] = [];
  for (const [where, givens] of read) {
    const open = [...givens].filter((g) => !declared.has(g)).sort();
    if (open.length === 0) continue;
    warnings.push(`${where}: its #(authorize) gate reads ${open.map((g) => `$${g}`).join(", ")}, which no attribute of the organization fills, ` +
      `so a request sets ${open.length === 1 ? "it" : "them"} (givens) and any caller who may query the package passes the gate; ` +
      `to make the gate a boundary, declare ${open.map((g) => `PUT /organizations/{org}/attributes/${g}`).join(" and ")} and give callers their values`);
  }
  return warnings;
}
