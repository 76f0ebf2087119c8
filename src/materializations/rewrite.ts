/**
 * The model a query compiles against once materializations are built: a
 * copy of the compiled model's IR in which every source that is, extends or
 * joins a materialized `#@ persist` source reads that source's Parquet file.
 *
 * Which sources qualify: Malloy copies a source's annotations into every
 * source derived from it (`extend`, a rename, a join, the source of a named
 * query), so a source definition whose annotation chain holds the
 * `#@ persist` note of a materialized source S, whose filters start with S's
 * filters and whose fields include S's fields, is S or built on S. Its base
 * relation (table, SQL or query) becomes the file, S's filters are dropped
 * (the file holds S's rows after them) and S's dimensions become plain
 * columns of the file (`select: *` wrote them under their names); what the
 * derived source adds (filters, dimensions, measures, views, joins) still
 * applies on top.
 *
 * A materialization of a warehouse source (PostgreSQL, ...) is read by the
 * package's DuckDB, so a derived source moves to the `duckdb` connection; that
 * is only done when nothing else in it needs the warehouse (a join to a
 * warehouse table keeps it on its definition), and never inside a source of
 * another connection.
 *
 * Inside a SQL source (`duckdb.sql("... %{ S } ...")`), Malloy expands each
 * `%{ }` segment when it writes the query's SQL: a `%{ S -> { ... } }` query
 * segment is rewritten like any query, and a `%{ S }` segment naming a
 * persistable (SQL or query) source becomes `(SELECT <its columns> FROM
 * '<file>')` when it would expand to exactly S's SQL (the same query or SQL
 * text, S without filters of its own) and the SQL source is on `duckdb`, the
 * connection that reads the file. The columns are the ones that SQL
 * returns, under their names, so the SQL around the segment sees the same
 * shape as at compile time. Anything else keeps its definition.
 * @module
 */

/** A built materialization the rewrite may use. */
export interface MaterializedSource {
  sourceName: string;
  /** Absolute path of the local Parquet file. */
  path: string;
  /** Column names of the file. */
  columns: string[];
}

// The Malloy IR is plain JSON; these are the few shapes read here.
type Json = Record<string, unknown>;
interface Note {
  text?: string;
  at?: { url?: string; range?: { start?: { line?: number; character?: number } } };
}

function noteKey(note: Note): string {
  const start = note.at?.range?.start;
  return `${note.at?.url}:${start?.line}:${start?.character}`;
}

function notesOf(annotations: unknown, own = false): Note[] {
  const out: Note[] = [];
  let level = annotations as Json | undefined;
  while (level && typeof level === "object") {
    for (const list of [level.blockNotes, level.notes]) {
      if (Array.isArray(list)) out.push(...(list as Note[]));
    }
    if (own) break;
    level = level.inherits as Json | undefined;
  }
  return out;
}

const PERSIST = /^#@\s*(\S+\s+)*persist\b/;

interface Target {
  m: MaterializedSource;
  /** The materialized source's own definition. */
  def: Json;
  markers: Set<string>;
  filters: string[];
  fields: Set<string>;
}

function activeName(field: Json): string {
  return (field.as as string | undefined) ?? (field.name as string);
}

function filterCodes(def: Json): string[] {
  const list = (def.filterList as Json[] | undefined) ?? [];
  return list.map((f) => JSON.stringify(f.e ?? f.code));
}

function isSource(def: unknown): def is Json {
  if (!def || typeof def !== "object") return false;
  const type = (def as Json).type;
  return typeof type === "string" && ["table", "sql_select", "query_source", "composite"].includes(type) && Array.isArray((def as Json).fields);
}

function isJoin(field: Json): boolean {
  return field.join !== undefined && isSource(field);
}

/** The materialized source `def` is (or is built on), if any. */
function targetOf(def: Json, targets: Target[]): Target | undefined {
  const chain = new Set(notesOf(def.annotations).map(noteKey));
  const filters = filterCodes(def);
  const names = new Set(((def.fields as Json[]) ?? []).map(activeName));
  let best: Target | undefined;
  for (const t of targets) {
    if (![...t.markers].some((k) => chain.has(k))) continue;
    if (t.filters.some((f, i) => filters[i] !== f)) continue;
    if ([...t.fields].some((n) => !names.has(n))) continue;
    if (!best || t.filters.length + t.fields.size > best.filters.length + best.fields.size) best = t;
  }
  return best;
}

function quoteString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** `def` reading the file of `t`, or undefined when it cannot move to duckdb. */
function rebased(def: Json, t: Target): Json | undefined {
  const fields = def.fields as Json[];
  const columns = new Set(t.m.columns);
  if (def.connection !== "duckdb" && fields.some((f) => isJoin(f) && f.connection !== "duckdb")) return undefined;
  const out: Json = { ...def };
  for (const key of ["query", "selectStr", "selectSegments", "persistent", "partitionComposite"]) delete out[key];
  out.type = "table";
  out.tablePath = quoteString(t.m.path);
  out.name = `duckdb:${out.tablePath as string}`;
  out.connection = "duckdb";
  out.dialect = "duckdb";
  out.filterList = ((def.filterList as Json[] | undefined) ?? []).slice(t.filters.length);
  out.fields = fields.map((f) => {
    const name = activeName(f);
    if (isJoin(f) || !t.fields.has(name) || !columns.has(name) || f.type === "turtle" || f.expressionType === "aggregate") return f;
    if (f.join !== undefined) return f;
    const column: Json = { ...f, name };
    for (const key of ["as", "e", "code", "expressionType", "refSummary"]) delete column[key];
    return column;
  });
  return out;
}

/** Rewrites a source definition and what it contains; same object when nothing changes. */
function rewriteSource(def: Json, targets: Target[], used: Set<string>): Json {
  const t = targetOf(def, targets);
  if (t) {
    const moved = rebased(def, t);
    if (moved) {
      used.add(t.m.sourceName);
      return rewriteJoins(moved, targets, used);
    }
  }
  let out = rewriteJoins(def, targets, used);
  if (def.type === "query_source" && def.query && typeof def.query === "object") {
    const query = rewriteQuery(def.query as Json, targets, used, def.connection as string);
    if (query !== def.query) out = { ...out, query };
  }
  if (def.type === "sql_select") {
    const segments = rewriteSegments(def, targets, used);
    if (segments !== def.selectSegments) out = { ...out, selectSegments: segments };
  }
  return out;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Whether `a` and `b` expand to the same SQL (Malloy writes a query source's query, or a SQL source's text and segments). */
function sameSql(a: Json, b: Json): boolean {
  if (a.type !== b.type) return false;
  if (a.type === "query_source") return JSON.stringify(a.query) === JSON.stringify(b.query);
  return a.selectStr === b.selectStr && JSON.stringify(a.selectSegments ?? []) === JSON.stringify(b.selectSegments ?? []);
}

/** A `%{ S }` segment as SQL reading S's file, or undefined when the file is not what the segment expands to. */
function segmentFromFile(segment: Json, targets: Target[]): Json | undefined {
  const t = targetOf(segment, targets);
  if (!t || t.filters.length > 0 || !sameSql(segment, t.def)) return undefined;
  // The columns the segment's SQL returns: its plain fields (not computed dimensions, measures, views or joins).
  const plain = (t.def.fields as Json[]).filter((f) => !isJoin(f) && f.join === undefined && f.type !== "turtle" && f.e === undefined && f.expressionType !== "aggregate");
  const columns = new Set(t.m.columns);
  if (plain.length === 0 || plain.some((f) => !columns.has(activeName(f)))) return undefined;
  const list = plain.map((f) => activeName(f) === f.name ? quoteIdentifier(f.name as string) : `${quoteIdentifier(activeName(f))} AS ${quoteIdentifier(f.name as string)}`);
  return { sql: `(SELECT ${list.join(", ")} FROM ${quoteString(t.m.path)})` };
}

/** The `%{ }` segments of a SQL source `def`, rewritten (see the module comment); the same array when nothing changes. */
function rewriteSegments(def: Json, targets: Target[], used: Set<string>): unknown {
  const segments = def.selectSegments;
  if (!Array.isArray(segments)) return segments;
  const connection = def.connection as string;
  let changed = false;
  const next = (segments as Json[]).map((segment) => {
    if (!segment || typeof segment !== "object" || "sql" in segment) return segment;
    let out = segment;
    if (segment.type === "query_source" || segment.type === "sql_select") {
      const file = connection === "duckdb" ? segmentFromFile(segment, targets) : undefined;
      if (file) {
        used.add(targetOf(segment, targets)!.m.sourceName);
        out = file;
      } else if (segment.type === "query_source" && segment.query && typeof segment.query === "object") {
        const query = rewriteQuery(segment.query as Json, targets, used, connection);
        if (query !== segment.query) out = { ...segment, query };
      } else if (segment.type === "sql_select") {
        const inner = rewriteSegments(segment, targets, used);
        if (inner !== segment.selectSegments) out = { ...segment, selectSegments: inner };
      }
    } else if (segment.type === "query") {
      out = rewriteQuery(segment, targets, used, connection);
    }
    if (out !== segment) changed = true;
    return out;
  });
  return changed ? next : segments;
}

function rewriteJoins(def: Json, targets: Target[], used: Set<string>): Json {
  const fields = def.fields as Json[];
  let changed = false;
  const next = fields.map((f) => {
    if (!isJoin(f)) return f;
    const inner = new Set<string>();
    const joined = rewriteSource(f, targets, inner);
    // A join must stay on its parent's connection.
    if (joined === f || joined.connection !== def.connection) return f;
    for (const n of inner) used.add(n);
    changed = true;
    return joined;
  });
  return changed ? { ...def, fields: next } : def;
}

function rewriteQuery(query: Json, targets: Target[], used: Set<string>, connection?: string): Json {
  const ref = query.structRef;
  if (!isSource(ref)) return query;
  const inner = new Set<string>();
  const next = rewriteSource(ref, targets, inner);
  if (next === ref || (connection !== undefined && next.connection !== connection)) return query;
  for (const n of inner) used.add(n);
  return { ...query, structRef: next };
}

/**
 * The model definition `modelDef` with the materialized sources `built`
 * substituted (see the module comment); `used` names the materialized
 * sources that something in it now reads. Returns `modelDef` itself when
 * nothing can be substituted.
 */
export function rewriteModel<T extends object>(modelDef: T, built: readonly MaterializedSource[]): { modelDef: T; used: Set<string> } {
  const contents = (modelDef as unknown as { contents: Record<string, Json> }).contents;
  const targets: Target[] = [];
  for (const m of built) {
    const def = contents[m.sourceName];
    if (!isSource(def)) continue;
    const markers = new Set(notesOf(def.annotations, true).filter((n) => PERSIST.test((n.text ?? "").trim())).map(noteKey));
    if (markers.size === 0) for (const n of notesOf(def.annotations)) if (PERSIST.test((n.text ?? "").trim())) markers.add(noteKey(n));
    if (markers.size === 0) continue;
    targets.push({ m, def, markers, filters: filterCodes(def), fields: new Set((def.fields as Json[]).filter((f) => !isJoin(f)).map(activeName)) });
  }
  const used = new Set<string>();
  if (targets.length === 0) return { modelDef, used };
  const next: Record<string, Json> = {};
  let changed = false;
  for (const [name, entry] of Object.entries(contents)) {
    let rewritten = entry;
    if (isSource(entry)) rewritten = rewriteSource(entry, targets, used);
    else if ((entry as Json | undefined)?.type === "query") rewritten = rewriteQuery(entry as Json, targets, used);
    next[name] = rewritten;
    if (rewritten !== entry) changed = true;
  }
  if (!changed) return { modelDef, used };
  return { modelDef: { ...modelDef, contents: next } as T, used };
}
