/**
 * What a Malloy query does, read from the query Malloy compiles against an
 * eval package's model (test/eval/schema.ts): its source, the view it runs,
 * its columns (grouped, selected or aggregated, each resolved to the
 * canonical `source.field` it reads, with time grain or aggregate function),
 * its where filters (field and kept values, string filter expressions parsed
 * with @malloydata/malloy-filter), its order and limit. Only the first stage
 * of a pipeline is read. No text of the query is matched: every fact comes
 * from the compiled structure.
 * @module
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BooleanFilterExpression, StringFilterExpression, type StringFilter } from "@malloydata/malloy-filter";
import type { FieldMetadata, SourceMetadata } from "../../src/engine/compile/metadata.ts";
import { type CompiledModel, compileModel, createPackageRuntime } from "../../src/engine/mod.ts";
import type { EvalPackage } from "./schema.ts";

/** One output column of the query's first stage. */
export interface Column {
  kind: "group" | "select" | "aggregate";
  /** Canonical `source.field` read, the source counted for `count()`, `?code` for an expression not read as one field. */
  name: string;
  /** The path as written from the query's source (`trips.pickup_zone.Borough`). */
  at?: string;
  /** Time grain of a truncated (or year-extracted) time dimension. */
  grain?: string;
  /** Aggregate function applied to a dimension (`sum(amount)`). */
  fn?: string;
  /** The column's name in the result. */
  output: string;
  /** True for a number dimension. */
  number: boolean;
}

/** One where condition (a conjunct). */
export interface Filter {
  /** Canonical field filtered; undefined when the condition is not read as one field. */
  field?: string;
  /** The path as written from the query's source. */
  at?: string;
  /** Values kept by an equality or a list of values. */
  values?: string[];
  /** LIKE patterns kept. */
  patterns?: string[];
  code: string;
}

/** What the query does. */
export interface QueryFacts {
  source: string;
  /** Canonical `source.view` when the query runs a view. */
  view?: string;
  columns: Column[];
  filters: Filter[];
  orderBy: Array<{ column?: Column; dir: "asc" | "desc" }>;
  limit?: number;
}

interface IrNode {
  node?: string;
  path?: string[];
  e?: IrNode;
  kids?: Record<string, IrNode | IrNode[]>;
  literal?: string;
  units?: string;
  function?: string;
  filterSrc?: string;
  dataType?: string;
  structPath?: string[];
  not?: boolean;
}
interface IrField {
  type?: string;
  name?: string;
  path?: string[];
  e?: IrNode;
  expressionType?: string;
  timeframe?: string;
  code?: string;
  drillExpression?: { path?: string[] };
}
interface IrSegment {
  type: string;
  queryFields: IrField[];
  filterList?: Array<{ e: IrNode; expressionType?: string; isSourceFilter?: boolean; code?: string }>;
  orderBy?: Array<{ field: string | number; dir?: string }>;
  limit?: number;
}
interface IrQuery {
  structRef: string | { as?: string; name?: string };
  pipeline: IrSegment[];
}

/** Grain names of extracted parts (`hour(t)` is the hour of the day); `year(t)` is the year itself. */
const EXTRACTED: Record<string, string> = {
  year: "year", quarter: "quarter_of_year", month: "month_of_year", week: "week_of_year", day: "day_of_month",
  day_of_week: "day_of_week", day_of_year: "day_of_year", hour: "hour_of_day", minute: "minute_of_hour", second: "second_of_minute",
};

const models = new Map<string, Promise<CompiledModel>>();

/** The package's Malloy model, compiled once per process. */
function modelOf(pkg: EvalPackage): Promise<CompiledModel> {
  let known = models.get(pkg.name);
  if (!known) {
    const path = pkg.models[0]!.modelPath;
    const runtime = createPackageRuntime(new Map([[path, new TextEncoder().encode(pkg.malloy)]]), mkdtempSync(join(tmpdir(), "judge-model-")));
    models.set(pkg.name, (known = compileModel(runtime, path)));
  }
  return known;
}

/** Names and join targets of a package's sources. */
export class Catalog {
  private readonly sources: Map<string, SourceMetadata>;
  private readonly targets = new Map<string, string | undefined>();
  constructor(private readonly pkg: EvalPackage) {
    this.sources = new Map(pkg.models[0]!.sources.map((s) => [s.name, s]));
  }
  /** Names of the package's sources. */
  sourceNames(): string[] {
    return [...this.sources.keys()];
  }
  /** Join names of a source with the source each reaches. */
  joins(source: string): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const j of this.sources.get(source)?.joins ?? []) {
      const t = this.target(source, j.name);
      if (t) out.push([j.name, t]);
    }
    return out;
  }
  canonical(key: string): string {
    return this.pkg.canonical.get(key) ?? key;
  }
  /** A source's own field (no join) by name. */
  own(source: string, name: string): FieldMetadata | undefined {
    const s = this.sources.get(source);
    return s && [...s.dimensions, ...s.measures, ...s.views].find((f) => f.joinPath.length === 0 && f.path === name);
  }
  /** The field a canonical `source.field` names. */
  field(canonical: string): FieldMetadata | undefined {
    const dot = canonical.indexOf(".");
    return dot < 0 ? undefined : this.own(canonical.slice(0, dot), canonical.slice(dot + 1));
  }
  /** The source a join of `source` reaches: the one whose fields are the join's fields, read the same. */
  private target(source: string, joinName: string): string | undefined {
    const key = `${source}.${joinName}`;
    if (this.targets.has(key)) return this.targets.get(key);
    const src = this.sources.get(source);
    const joined = src ? [...src.dimensions, ...src.measures].filter((f) => f.joinPath[0] === joinName) : [];
    const names = joined.map((f) => f.path.slice(joinName.length + 1)).sort();
    let found: string | undefined;
    for (const t of this.sources.values()) {
      const own = [...t.dimensions, ...t.measures].filter((f) => f.joinPath.length === 0).map((f) => f.path).sort();
      if (own.length !== names.length || own.some((n, i) => n !== names[i])) continue;
      if (names.every((n) => this.canonical(`${t.name}.${n}`) === this.canonical(`${source}.${joinName}.${n}`))) found = t.name;
    }
    this.targets.set(key, found);
    return found;
  }
  /** The source a join path from `source` reaches, or undefined. */
  reach(source: string, path: string[]): string | undefined {
    let at: string | undefined = source;
    for (const join of path) at = at && this.target(at, join);
    return at;
  }
  /** Canonical `source.field` of a path read from `source`, or undefined. */
  resolve(source: string, path: string[]): string | undefined {
    if (path.length === 0) return undefined;
    if (path.length === 1) return this.own(source, path[0]!) ? this.canonical(`${source}.${path[0]}`) : undefined;
    const next = this.target(source, path[0]!);
    return next ? this.resolve(next, path.slice(1)) : undefined;
  }
}

function fieldPath(node: IrNode | undefined): string[] | undefined {
  return node?.node === "field" ? node.path : undefined;
}

function literal(node: IrNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.node === "stringLiteral" || node.node === "numberLiteral") return node.literal;
  if (node.node === "true" || node.node === "false") return node.node;
  return undefined;
}

/** Any field path inside a node. */
function anyPath(node: IrNode | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.node === "field") return node.path;
  const inner = anyPath(node.e);
  if (inner) return inner;
  for (const kid of Object.values(node.kids ?? {})) {
    for (const k of Array.isArray(kid) ? kid : [kid]) {
      const found = anyPath(k);
      if (found) return found;
    }
  }
  return undefined;
}

/** Values and patterns a parsed string filter expression keeps (undefined: not a plain keep-list). */
function stringKeeps(f: StringFilter | null): { values: string[]; patterns: string[] } | undefined {
  if (!f || ("not" in f && f.not)) return undefined;
  switch (f.operator) {
    case "=": return { values: f.values, patterns: [] };
    case "contains": return { values: [], patterns: f.values.map((v) => `%${v}%`) };
    case "starts": return { values: [], patterns: f.values.map((v) => `${v}%`) };
    case "ends": return { values: [], patterns: f.values.map((v) => `%${v}`) };
    case "~": return { values: [], patterns: f.escaped_values };
    case "()": return stringKeeps(f.expr);
    case ",":
    case "or": {
      const parts = f.members.map(stringKeeps);
      if (parts.some((p) => !p)) return undefined;
      return { values: parts.flatMap((p) => p!.values), patterns: parts.flatMap((p) => p!.patterns) };
    }
    default: return undefined;
  }
}

type Resolve = (path: string[]) => { name?: string; at: string };

function readFilter(node: IrNode, code: string, resolve: Resolve): Filter[] {
  const kid = (name: string) => node.kids?.[name] as IrNode | undefined;
  const on = (path: string[] | undefined) => {
    const r = path && resolve(path);
    return r?.name ? { field: r.name, at: r.at } : {};
  };
  switch (node.node) {
    case "and": return [...readFilter(kid("left")!, code, resolve), ...readFilter(kid("right")!, code, resolve)];
    case "()": return readFilter(node.e!, code, resolve);
    case "=": {
      const [f, v] = fieldPath(kid("left")) ? [kid("left"), kid("right")] : [kid("right"), kid("left")];
      const value = literal(v);
      return [{ ...on(fieldPath(f)), ...(value !== undefined ? { values: [value] } : {}), code }];
    }
    case "in": {
      const values = ((node.kids?.oneOf ?? []) as IrNode[]).map(literal);
      const keeps = !node.not && values.every((v) => v !== undefined);
      return [{ ...on(fieldPath(kid("e"))), ...(keeps ? { values: values as string[] } : {}), code }];
    }
    case "like": {
      const pattern = literal(kid("right"));
      return [{ ...on(fieldPath(kid("left"))), ...(pattern !== undefined ? { patterns: [pattern] } : {}), code }];
    }
    case "field": return [{ ...on(node.path), values: ["true"], code }];
    case "not": return fieldPath(node.e) ? [{ ...on(node.e!.path), values: ["false"], code }] : [{ ...on(anyPath(node)), code }];
    case "or": {
      const [a, b] = [readFilter(kid("left")!, code, resolve), readFilter(kid("right")!, code, resolve)];
      const one = a.length === 1 && b.length === 1 && a[0]!.field && a[0]!.field === b[0]!.field;
      if (one && (a[0]!.values || a[0]!.patterns) && (b[0]!.values || b[0]!.patterns)) {
        return [{ field: a[0]!.field, at: a[0]!.at, values: [...(a[0]!.values ?? []), ...(b[0]!.values ?? [])], patterns: [...(a[0]!.patterns ?? []), ...(b[0]!.patterns ?? [])], code }];
      }
      return [{ ...(one ? { field: a[0]!.field, at: a[0]!.at } : {}), code }];
    }
    case "filterMatch": {
      const field = on(fieldPath(kid("expr")));
      const src = kid("filterExpr")?.filterSrc;
      if (src === undefined) return [{ ...field, code }];
      if (node.dataType === "string") {
        const keeps = stringKeeps(StringFilterExpression.parse(src).parsed);
        return [{ ...field, ...(keeps?.values.length ? { values: keeps.values } : {}), ...(keeps?.patterns.length ? { patterns: keeps.patterns } : {}), code }];
      }
      if (node.dataType === "boolean") {
        const parsed = BooleanFilterExpression.parse(src).parsed;
        if (parsed && (parsed.operator === "true" || parsed.operator === "=true" || parsed.operator === "false" || parsed.operator === "=false")) {
          const truth = parsed.operator.endsWith("true") !== Boolean(parsed.not);
          return [{ ...field, values: [String(truth)], code }];
        }
      }
      return [{ ...field, code }];
    }
    default: return [{ ...on(anyPath(node)), code }];
  }
}

/**
 * Compiles the query against the package's model and reads what it does.
 * Throws Malloy's error when the query does not compile.
 */
export async function queryFacts(pkg: EvalPackage, text: string): Promise<QueryFacts> {
  const compiled = await modelOf(pkg);
  const prepared = await compiled.pkg.runtime._loadModelFromModelDef(compiled.model._modelDef).loadQuery(text).getPreparedQuery();
  const query = prepared._query as unknown as IrQuery;
  const source = typeof query.structRef === "string" ? query.structRef : (query.structRef.as ?? query.structRef.name ?? "");
  const catalog = new Catalog(pkg);
  const resolve = (path: string[]) => catalog.resolve(source, path);
  const at = (path: string[]) => [source, ...path].join(".");
  const segment = query.pipeline[0]!;
  const isNumber = (name: string) => catalog.field(name)?.dataType === "number" && catalog.field(name)?.fieldType === "dimension";
  const columns: Column[] = [];
  let view: string | undefined;
  for (const f of segment.queryFields) {
    const drill = f.drillExpression?.path;
    if (drill?.length === 1 && catalog.own(source, drill[0]!)?.fieldType === "view") view = catalog.canonical(`${source}.${drill[0]}`);
    if (f.type === "turtle") continue;
    const output = f.name ?? f.path?.at(-1) ?? "";
    if (f.type === "fieldref") {
      const name = resolve(f.path ?? []) ?? `?${(f.path ?? []).join(".")}`;
      const kind = catalog.field(name)?.fieldType === "measure" ? "aggregate" : segment.type === "project" ? "select" : "group";
      columns.push({ kind, name, at: at(f.path ?? []), output, number: isNumber(name) });
      continue;
    }
    const e = f.e;
    if (f.expressionType === "aggregate" || e?.node === "aggregate") {
      if (e?.node === "aggregate") {
        const arg = fieldPath(e.e);
        // count() is read as count(source), the source its join path reaches (`orders.count()` from lineitem counts orders)
        const counted = e.e?.node === "" ? catalog.reach(source, e.structPath ?? []) : undefined;
        const name = arg ? (resolve(arg) ?? `?${f.code}`) : (counted ?? `?${f.code}`);
        columns.push({ kind: "aggregate", name, ...(arg ? { at: at(arg) } : {}), fn: e.function, output, number: false });
      } else {
        const path = fieldPath(e);
        columns.push({ kind: "aggregate", name: (path && resolve(path)) ?? `?${f.code}`, ...(path ? { at: at(path) } : {}), output, number: false });
      }
      continue;
    }
    const kind = segment.type === "project" ? "select" : "group";
    const timed = e?.node === "trunc" || e?.node === "extract";
    const path = fieldPath(timed ? e.e : e);
    const name = (path && resolve(path)) ?? `?${f.code ?? output}`;
    const grain = e?.node === "trunc" ? e.units : e?.node === "extract" ? (EXTRACTED[e.units ?? ""] ?? e.units) : undefined;
    columns.push({ kind, name, ...(path ? { at: at(path) } : {}), output, number: grain === undefined && isNumber(name), ...(grain ? { grain } : {}) });
  }
  const filters = (segment.filterList ?? [])
    .filter((f) => f.expressionType !== "aggregate" && !f.isSourceFilter)
    .flatMap((f) => readFilter(f.e, f.code ?? "", (path) => ({ name: resolve(path), at: at(path) })));
  const orderBy = (segment.orderBy ?? []).map((o) => ({
    column: typeof o.field === "number" ? columns[o.field - 1] : columns.find((c) => c.output === o.field),
    dir: o.dir === "desc" ? ("desc" as const) : ("asc" as const),
  }));
  return { source, ...(view ? { view } : {}), columns, filters, orderBy, ...(segment.limit !== undefined ? { limit: segment.limit } : {}) };
}
