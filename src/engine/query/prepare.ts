/**
 * The query a run names, compiled, and its SQL, each cached: compiled
 * queries per model definition and query text (or name and source), and
 * the generated SQL per compiled query object, so a query bound to one set
 * of givens generates its SQL once ({@link queryWithGivens}). Used by the
 * runner (./query.ts).
 * @module
 */
import {
  type Explore,
  Model,
  type ModelDef,
  type PreparedQuery,
  type PreparedResult,
  type QueryMaterializer,
} from "@malloydata/malloy";
import type { CompiledModel } from "../compile/compile.ts";
import { QueryError } from "../problems.ts";
import { ownedLru } from "./owned_lru.ts";
import { quoteName } from "./malloy_names.ts";
import type { ColumnSchema, RunQueryOptions } from "./options.ts";

/** A query compiled against a model definition: what {@link chooseQuery} chose, compiled. */
interface CompiledQuery {
  query: PreparedQuery;
  sourceName?: string;
  queryName?: string;
}

/** The SQL of a compiled (and authorized) query, with what the answer's metadata needs. */
interface GeneratedSql {
  prepared: PreparedResult;
  metadata: { schema: ColumnSchema[]; sourceName?: string; sql: string; connection: string };
}

/** Compiled queries kept per model definition (most recently used last). */
const QUERY_CACHE_ENTRIES = 500;

/**
 * Compiled queries by model definition, then by (restricted mode, query text
 * or name and source). A model definition belongs to one compiled model of
 * one package version (a served materialization rewrites it into a new
 * object), so an entry never serves another version, model or organization;
 * restricted and unrestricted compiles of the same text are separate
 * entries. Failed compiles are not kept.
 */
const compiledQueries = ownedLru<ModelDef, Promise<CompiledQuery>>(QUERY_CACHE_ENTRIES);

/**
 * Drops the compiled queries kept for a model definition (its model went
 * idle or memory is short); returns how many were dropped. The next run of
 * each text compiles it again.
 */
export function forgetCompiledQueries(modelDef: ModelDef): number {
  return compiledQueries.clear(modelDef);
}

/**
 * Generated SQL by compiled query object. Authorization answers either the
 * compiled query itself (no bound parameter) or a rewritten one that
 * src/rls keeps per bound values, so the SQL of one set of values is
 * generated once and never answers a query with other values.
 */
const generatedSql = new WeakMap<PreparedQuery, GeneratedSql>();

/** A value of a Malloy given, as a query supplies it. */
export type GivenInput = string | number | boolean | null | string[];

/** The givens each query object generates its SQL with (see {@link queryWithGivens}). */
const suppliedGivens = new WeakMap<PreparedQuery, Record<string, GivenInput>>();

/**
 * A query object with the same definition as `query` whose SQL is generated
 * with these givens (Malloy's `$NAME` values, by surface name): its own
 * object, so its SQL is cached apart from any other set of values.
 */
export function queryWithGivens(query: PreparedQuery, givens: Record<string, GivenInput>): PreparedQuery {
  const Prepared = query.constructor as new (q: unknown, model: unknown, problems: unknown, name?: string) => PreparedQuery;
  const made = new Prepared(query._query, (query as unknown as { _model: unknown })._model, query.problems, query.name);
  suppliedGivens.set(made, givens);
  return made;
}

/** The query the options name, compiled against the model (from the cache when it was compiled before); `compileError` says why not. */
export async function compiledQueryOf(compiled: CompiledModel, options: RunQueryOptions, compileError: (error: unknown) => QueryError): Promise<CompiledQuery> {
  const modelDef = options.modelDef ?? compiled.model._modelDef;
  const key = JSON.stringify([options.restricted === true, options.query ?? null, options.queryName ?? null, options.sourceName ?? null]);
  const hit = compiledQueries.get(modelDef, key);
  if (hit) return await hit;
  const { materializer, sourceName, queryName } = chooseQuery(compiled, options);
  const pending = materializer.getPreparedQuery().then(
    (query): CompiledQuery => ({ query, sourceName, queryName }),
    (error: unknown) => {
      throw compileError(error);
    },
  );
  if (options.keep === false) return await pending;
  compiledQueries.set(modelDef, key, pending);
  pending.catch(() => compiledQueries.deleteIf(modelDef, key, pending));
  return await pending;
}

/** The SQL of a compiled (and authorized) query, generated once per query object; `compileError` says why not. */
export function sqlOf(compiled: CompiledModel, query: PreparedQuery, compileError: (error: unknown) => QueryError): GeneratedSql {
  const known = generatedSql.get(query);
  if (known) return known;
  let prepared: PreparedResult;
  try {
    const givens = suppliedGivens.get(query);
    prepared = givens ? query.getPreparedResult({ givens }) : query.preparedResult;
  } catch (error) {
    throw compileError(error);
  }
  const generated: GeneratedSql = {
    prepared,
    metadata: {
      schema: schemaOf(prepared.resultExplore),
      sourceName: safeSourceName(prepared),
      // the package's own files appear by their path in the package, not the server's folder
      sql: prepared.sql.split(`${compiled.pkg.packageDir.replace(/\/+$/, "")}/`).join(""),
      connection: prepared.connectionName,
    },
  };
  generatedSql.set(query, generated);
  return generated;
}

/** Malloy models of query definitions other than a compiled model's own, to look up and list their names. */
const definitionModels = new WeakMap<ModelDef, Model>();

function modelOfDef(def: ModelDef): Model {
  let model = definitionModels.get(def);
  if (!model) definitionModels.set(def, model = new Model(def, [], []));
  return model;
}

function chooseQuery(
  compiled: CompiledModel,
  options: RunQueryOptions,
): { materializer: QueryMaterializer; sourceName?: string; queryName?: string } {
  const { query, queryName, sourceName } = options;
  if ((query === undefined) === (queryName === undefined)) {
    throw new QueryError("request", "give either query (Malloy text) or queryName (with sourceName for a view), not both or neither");
  }
  if (query !== undefined && sourceName !== undefined) {
    throw new QueryError("request", "sourceName goes with queryName; leave it out when giving query text");
  }
  // names are looked up and listed in the definition the query compiles against (a caller's view of the model)
  const model = options.modelDef ? modelOfDef(options.modelDef) : compiled.model;
  const models = compiled.pkg.runtime._loadModelFromModelDef(options.modelDef ?? model._modelDef);
  if (query !== undefined) {
    if (query.trim() === "") throw new QueryError("request", "query is empty; write Malloy such as `run: source -> { aggregate: count() }`");
    const text = asStatement(query);
    return { materializer: options.restricted ? models.loadRestrictedQuery(text) : models.loadQuery(text) };
  }
  const name = queryName as string;
  const named = model.queries().named.includes(name);
  if (sourceName !== undefined) {
    const source = model.explores.find((explore) => explore.name === sourceName);
    if (!source) {
      throw new QueryError("request", `model '${compiled.path}' has no source named '${sourceName}'; its sources are ${list(model.explores.map((e) => e.name))}`);
    }
    const view = source.getFieldByNameIfExists(name);
    if (view?.isQueryField()) {
      return {
        materializer: models.loadQuery(`run: ${quoteName(sourceName)} -> ${quoteName(name)}`),
        sourceName,
        queryName: name,
      };
    }
    if (!named) {
      const views = source.allFields.filter((f) => f.isQueryField()).map((f) => f.name);
      throw new QueryError("request", `source '${sourceName}' has no view named '${name}' and the model has no query of that name; its views are ${list(views)}`);
    }
  } else if (!named) {
    throw new QueryError("request", `model '${compiled.path}' has no query named '${name}'; give sourceName to run a view, or use one of ${list(model.queries().named)}`);
  }
  return { materializer: models.loadQueryByName(name), sourceName, queryName: name };
}

function schemaOf(explore: Explore): ColumnSchema[] {
  return explore.allFields.map((field) => {
    if (field.isAtomicField()) return { name: field.name, type: String(field.type) };
    if (field.isExploreField()) return { name: field.name, type: field.structDef.type === "record" ? "record" : "array" };
    return { name: field.name, type: "view" };
  });
}

function asStatement(query: string): string {
  const body = query.replace(/^(\s|--[^\n]*\n|\/\/[^\n]*\n)*/, "");
  return /^(run|query|source|import|#)/.test(body) ? query : `run: ${query}`;
}

function list(names: string[]): string {
  return names.length === 0 ? "(none)" : names.map((n) => `'${n}'`).join(", ");
}

function safeSourceName(prepared: PreparedResult): string | undefined {
  try {
    return prepared.sourceExplore?.name;
  } catch {
    return undefined;
  }
}
