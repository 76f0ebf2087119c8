/**
 * A compact way to write the development set's models: each field is one
 * line `name type [| doc] [= value; value]` (types: s string, n number,
 * d date, t timestamp, b boolean, m measure, v view), sources join other
 * sources (their fields appear by dotted path, as Malloy's metadata lists
 * them) and extend others (the base's fields again, plus new ones).
 *
 * The values given with a string dimension stand for the values a run
 * indexes automatically (low-cardinality string dimensions).
 * @module
 */
import type { FieldMetadata, ModelMetadata, SourceMetadata } from "../../src/engine/metadata.ts";

/** One source as written in the development set. */
export interface SourceSpec {
  doc?: string;
  fields: string[];
  /** Join name -> joined source name. */
  joins?: Record<string, string>;
  /** Source this one extends. */
  extends?: string;
}

/** One package of the development set. */
export interface EvalPackage {
  name: string;
  models: ModelMetadata[];
  /** Values by `source.fieldPath`. */
  values: Record<string, string[]>;
  /** Canonical `source.field` of each `source.fieldPath` seen through a join or an extend. */
  canonical: Map<string, string>;
}

const TYPES: Record<string, [FieldMetadata["fieldType"], string]> = {
  s: ["dimension", "string"], n: ["dimension", "number"], d: ["dimension", "date"], t: ["dimension", "timestamp"],
  b: ["dimension", "boolean"], m: ["measure", "number"], v: ["view", "view"],
};

interface Parsed {
  field: FieldMetadata;
  values?: string[];
}

function parseField(line: string): Parsed {
  const [head, valuePart] = line.split(" = ");
  const [decl, doc] = head!.split(" | ");
  const [name, type] = decl!.trim().split(/\s+/);
  const t = TYPES[type ?? ""];
  if (!name || !t) throw new Error(`bad field line '${line}'`);
  const values = valuePart?.split(";").map((v) => v.trim()).filter((v) => v !== "");
  return {
    field: { name, path: name, fieldType: t[0], dataType: t[1], description: doc?.trim(), indexed: false, joinPath: [] },
    ...(values ? { values } : {}),
  };
}

/**
 * Builds one package: one model holding every source, join fields by dotted
 * path (one level), extended sources with the base's fields first.
 */
export function evalPackage(name: string, modelPath: string, modelDoc: string | undefined, specs: Record<string, SourceSpec>, queries: ModelMetadata["queries"] = []): EvalPackage {
  const own = new Map<string, Parsed[]>();
  const values: Record<string, string[]> = {};
  const canonical = new Map<string, string>();
  const ownFields = (src: string): Array<Parsed & { origin: string }> => {
    const spec = specs[src];
    if (!spec) throw new Error(`unknown source ${src}`);
    const base = spec.extends ? ownFields(spec.extends) : [];
    const mine = (own.get(src) ?? spec.fields.map(parseField)).map((p) => ({ ...p, origin: `${src}.${p.field.name}` }));
    own.set(src, mine);
    const names = new Set(mine.map((p) => p.field.name));
    return [...base.filter((p) => !names.has(p.field.name)), ...mine];
  };
  const sources: SourceMetadata[] = [];
  for (const [src, spec] of Object.entries(specs)) {
    const fields: FieldMetadata[] = [];
    for (const p of ownFields(src)) {
      fields.push(p.field);
      if (p.values) values[`${src}.${p.field.path}`] = p.values;
      if (p.origin !== `${src}.${p.field.name}`) canonical.set(`${src}.${p.field.path}`, p.origin);
    }
    for (const [join, target] of Object.entries(spec.joins ?? {})) {
      for (const p of ownFields(target)) {
        if (p.field.fieldType === "view") continue;
        const path = `${join}.${p.field.name}`;
        fields.push({ ...p.field, path, joinPath: [join] });
        if (p.values) values[`${src}.${path}`] = p.values;
        canonical.set(`${src}.${path}`, p.origin);
      }
    }
    sources.push({
      name: src,
      description: spec.doc,
      connection: "duckdb",
      dimensions: fields.filter((f) => f.fieldType === "dimension"),
      measures: fields.filter((f) => f.fieldType === "measure"),
      views: fields.filter((f) => f.fieldType === "view"),
      joins: Object.keys(spec.joins ?? {}).map((j) => ({ name: j, relationship: "one", joinPath: [] })),
    });
  }
  return { name, models: [{ modelPath, description: modelDoc, sources, queries }], values, canonical };
}
