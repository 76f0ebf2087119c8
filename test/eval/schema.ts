/**
 * A compact way to write the development set's models: each field is one
 * line `name type [| doc] [# tag] [= value; value]` (types: s string, n number,
 * d date, t timestamp, b boolean, m measure, v view; a tag such as
 * `# label="Shipping fee"` is kept as Malloy's metadata keeps `#` lines; a name holding
 * spaces is written in backquotes, `` `Recall Type` s ``), sources join other
 * sources (their fields appear by dotted path, as Malloy's metadata lists
 * them) and extend others (the base's fields again, plus new ones).
 *
 * The values given with a string dimension stand for the values a run
 * indexes automatically (low-cardinality string dimensions).
 * @module
 */
import type { FieldMetadata, ModelMetadata, SourceMetadata } from "../../src/engine/compile/metadata.ts";

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
  /** A Malloy model of the same sources over a few rows of DuckDB data (for running `next_steps`' queries). */
  malloy: string;
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
  const [annotated, valuePart] = line.split(" = ");
  const [head, ...tagParts] = annotated!.split(" # ");
  const tags = tagParts.map((t) => `# ${t.trim()}`);
  const [decl, doc] = head!.split(" | ");
  // A name holding spaces is written in backquotes, as Malloy quotes it: "`Recall Type` s".
  const quoted = /^`([^`]+)`\s+(\S+)$/.exec(decl!.trim());
  const [name, type] = quoted ? [quoted[1], quoted[2]] : decl!.trim().split(/\s+/);
  const t = TYPES[type ?? ""];
  if (!name || !t) throw new Error(`bad field line '${line}'`);
  const values = valuePart?.split(";").map((v) => v.trim()).filter((v) => v !== "");
  return {
    field: { name, path: name, fieldType: t[0], dataType: t[1], description: doc?.trim(), indexed: false, joinPath: [], ...(tags.length > 0 ? { tags } : {}) },
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
  return { name, models: [{ modelPath, description: modelDoc, sources, queries }], values, canonical, malloy: malloyText(specs, ownFields) };
}

const q = (name: string) => "`" + name + "`";

/**
 * The sources as Malloy over DuckDB: each source a `duckdb.sql` of four rows
 * holding its dimensions (string dimensions cycle through their values),
 * measures as `count()`, views as one aggregate, joins `on true`, sources
 * ordered so that joined sources come first. Only names and types matter:
 * the eval runs `next_steps`' queries on it to see that they compile and run.
 */
function malloyText(specs: Record<string, SourceSpec>, ownFields: (src: string) => Parsed[]): string {
  const order: string[] = [];
  const visit = (src: string) => {
    if (order.includes(src)) return;
    for (const target of Object.values(specs[src]!.joins ?? {})) visit(target);
    order.push(src);
  };
  for (const src of Object.keys(specs)) visit(src);
  const literal = (p: Parsed, i: number): string => {
    if (p.values && p.values.length > 0) return `'${p.values[i % p.values.length]!.replace(/'/g, "''")}'`;
    switch (p.field.dataType) {
      case "number": return `${i + 1}`;
      case "date": return `DATE '2024-01-0${i + 1}'`;
      case "timestamp": return `TIMESTAMP '2024-01-0${i + 1} 10:00:00'`;
      case "boolean": return i % 2 === 0 ? "true" : "false";
      default: return `'${p.field.name} ${i + 1}'`;
    }
  };
  return order.map((src) => {
    const fields = ownFields(src);
    const dims = fields.filter((p) => p.field.fieldType === "dimension");
    const rows = [0, 1, 2, 3].map((i) => `SELECT ${dims.map((p) => `${literal(p, i)} AS "${p.field.name}"`).join(", ")}`).join(" UNION ALL ");
    const body = [
      ...Object.entries(specs[src]!.joins ?? {}).map(([join, target]) => `join_one: ${q(join)} is ${q(target)} on true`),
      ...fields.filter((p) => p.field.fieldType === "measure").map((p) => `measure: ${q(p.field.name)} is count()`),
      ...fields.filter((p) => p.field.fieldType === "view").map((p) => `view: ${q(p.field.name)} is { aggregate: view_rows is count() }`),
    ];
    return `source: ${q(src)} is duckdb.sql("""${rows} """) extend {\n  ${body.join("\n  ")}\n}\n`;
  }).join("\n");
}
