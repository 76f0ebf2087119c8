/**
 * One authorized run of a query: check the arguments -> the readable target
 * and version (./target.ts) -> the compiled model -> the engine's `runQuery`
 * with the node's row limit, timeout and concurrency bound, the access rules
 * applied to the compiled query and materializations served ->
 * `{ data, totalRows, executionTime, metadata }` (or a dry run's SQL,
 * schema and sources). Failures a restricted caller hears are shaped by
 * ./restricted_errors.ts.
 * @module
 */
import { type ColumnSchema, QueryError, runQuery, type Semaphore, withReadableFiles } from "../engine/mod.ts";
import { hideServerPaths } from "../http/server_paths.ts";
import type { AppContext } from "../context.ts";
import { MODEL } from "../access/roles.ts";
import { apiErrorOf } from "../http/error_handler.ts";
import type { Principal } from "../access/principal.ts";
import { authorizeQuery, callerGroups, notAuthorized, queryModelDef } from "../rls/enforce.ts";
import { type CallerFacts, type CallerModel, callerModel, hasAuthorizeRules, hiddenReference } from "../rls/caller_model.ts";
import { type CallerGivens, callerGivens } from "../rls/givens.ts";
import { curatedDefinition } from "../models/curation.ts";
import { versionAuthorizes } from "../rls/visibility.ts";
import type { QueryVia } from "../query_log/store.ts";
import { type ArgumentStyle, checkQueryArgs, type QueryArgs } from "./args.ts";
import { serveMaterializations } from "../materializations/serve.ts";
import { compiledModelFor } from "../archives/compiled_models.ts";
import { type AttributeHints, hintKey } from "./attribute_hints.ts";
import { Refusal, restrictedFailure } from "./restricted_errors.ts";
import { checkWorkspace, queryableVersion, readableTarget } from "./target.ts";

/** The answer of a query (the seed's `execute_query` result). */
export interface QueryEnvelope {
  /** Rows, JSON-safe: big integers beyond 2^53 as strings, dates and timestamps as ISO 8601 strings. */
  data: Record<string, unknown>[];
  /** Rows of the whole result (more than `data.length` when truncated). */
  totalRows: number;
  /** Milliseconds spent compiling the query and running it. */
  executionTime: number;
  metadata: QueryMetadata;
  /** Malloy's own result (`Malloy.Result`: schema with the query's tags, data as cells), when the request asked for it. */
  malloyResult?: unknown;
}

/** What a result is and where it came from. */
interface QueryMetadata {
  /** Columns of the result: name and Malloy type. */
  schema: ColumnSchema[];
  sourceName?: string;
  queryName?: string;
  /** The package version that answered, e.g. `1.0.0`. */
  versionId: string;
  modelPath: string;
  /** The connection the SQL ran on (`duckdb` or an environment connection). */
  connection: string;
  sql: string;
  /** True when more rows existed than `rowLimit`; `data` holds the first `rowLimit`. */
  truncated: boolean;
  rowLimit: number;
  /** The materialization the query read (`#@ persist` sources), absent when it read the definitions. */
  materialization?: { id: string; builtAt: string };
}

/** The answer of a dry run: the query compiled and authorized, not run. */
export interface DryRunAnswer {
  sql: string;
  schema: ColumnSchema[];
  /** The model's sources the query reaches. */
  sources: string[];
}

/** Options of a run (`QueryRunner.run` of ./service.ts). */
export interface RunOptions {
  /** How the query arrived, for the query log (default `rest`). */
  via?: QueryVia;
  /** Names used in error messages: the MCP tool's snake_case (default) or REST's camelCase. */
  style?: ArgumentStyle;
  /** Cancels the query (e.g. the client went away). */
  signal?: AbortSignal;
  /**
   * `performance.now()` when the request arrived: the caller's rank on the
   * package then comes from a cache fresh as of that moment (http/auth_cache.ts).
   */
  since?: number;
}

/** State of a runner shared by its queries: the concurrency bound and the attribute hints. */
export interface RunnerState {
  semaphore: Semaphore;
  hints: AttributeHints;
}

/** What a run learns as it goes, for its query-log entry. */
export interface RunFacts {
  orgId?: string;
  versionId?: string;
  /** Attributes the access rules bound (the caller's values read for them). */
  boundAttributes: string[];
}

/** One call of a runner: who asks, what, how, and the facts the run fills in. */
export interface RunCall {
  principal: Principal;
  args: QueryArgs;
  options: RunOptions;
  /** Learns the organization, version and bound attributes as they become known (the caller logs the run with them). */
  facts: RunFacts;
}

/** Runs a query for a caller on a runner's shared state (its concurrency bound and attribute hints). */
export async function authorizedRun(ctx: AppContext, node: RunnerState, call: RunCall): Promise<QueryEnvelope | DryRunAnswer> {
  const facts = call.facts;
  const started = performance.now();
  const style = call.options.style ?? "snake";
  const args = checkQueryArgs(call.args, { style });
  const hint = hintKey(args);
  const pkg = await readableTarget(ctx, call.principal, { args, attributes: node.hints.get(hint), since: call.options.since });
  facts.orgId = pkg.orgId;
  if (args.workspace) await checkWorkspace(ctx, call.principal, { pkg, workspace: args.workspace });
  const version = queryableVersion(pkg, { versionId: args.version_id, style });
  facts.versionId = version.id;
  const compiled = await compiledModelFor(ctx, {
    versionUuid: version.uuid,
    versionId: version.id,
    blobSha256: version.blobSha256,
    envId: pkg.envId,
    packageName: pkg.packageName,
    modelPath: args.modelPath,
  });
  const rowLimit = Math.min(args.limit ?? ctx.config.queryRowLimit, ctx.config.queryRowLimit);
  // viewers, API keys and OAuth clients may use only the model's sources and queries
  const restricted = call.principal.kind === "group" || call.principal.oauth === true || pkg.rank < MODEL;
  let sources: string[] = [];
  const caller = { principal: call.principal, orgId: pkg.orgId };
  // Materializations: `#@ persist` sources read their latest built file (src/materializations/serve.ts).
  const served = await serveMaterializations(ctx, compiled, { versionUuid: version.uuid, blobSha256: version.blobSha256, hasBuilt: version.hasMaterializations });
  let view: CallerModel | undefined;
  let groups: ReadonlySet<string> | undefined;
  let result;
  try {
    // the query compiles against the model as the caller may see it: no source or named query behind an
    // #(authorize) rule the caller fails, so no problem or listing of the compile can describe one (the
    // model's own rules are read from its IR once, for versions whose stored rules say it has any)
    const def = queryModelDef(served.compiled);
    let callerFacts: CallerFacts | undefined;
    let readGivens: CallerGivens | undefined;
    if (await versionAuthorizes(ctx.sql, version.uuid) && hasAuthorizeRules(served.compiled, def)) {
      groups = await callerGroups(ctx.sql, caller);
      const model = served.compiled.model;
      readGivens = model.givens.size > 0 ? await callerGivens(ctx.sql, caller, model, args.givens) : undefined;
      callerFacts = { groups, values: readGivens?.values ?? new Map() };
    }
    view = callerFacts ? callerModel(served.compiled, def, callerFacts) : { def, hidden: new Map() };
    // a package that declares its queryable models: what its other files define cannot be named
    const queryable = served.compiled.queryable;
    if (queryable) view = { ...view, def: curatedDefinition(view.def, served.compiled.pkg.fileOf, queryable) };
    const modelDef = view.def;
    // DuckDB reads, outside the package folder, exactly this version's built files
    result = await withReadableFiles(served.readable, () => runQuery(served.compiled, {
      query: args.query,
      queryName: args.query_name,
      sourceName: args.source_name,
      rowLimit,
      timeoutMs: ctx.config.queryTimeoutMs,
      semaphore: node.semaphore,
      slotKey: pkg.orgId,
      signal: call.options.signal,
      restricted,
      modelDef,
      dryRun: args.dry_run,
      malloyResult: args.malloy_result,
      authorize: async (query) => {
        try {
          const authorized = await authorizeQuery(ctx.sql, caller, query, { compiled: served.compiled, text: args.query, prefetched: pkg.effective, groups, givens: args.givens, readGivens });
          facts.boundAttributes = authorized.boundAttributes;
          node.hints.remember(hint, authorized.boundAttributes);
          sources = authorized.sources;
          return authorized.query;
        } catch (error) {
          const api = apiErrorOf(error);
          throw api ? new Refusal(api) : error;
        }
      },
    }));
  } catch (error) {
    served.release();
    // naming what the caller may not see is refused as querying it is, whatever else is wrong with the query
    const rule = view && error instanceof QueryError && (error.kind === "compile" || error.kind === "request")
      ? hiddenReference(view, { problems: error.problems, sourceName: args.source_name, queryName: args.query_name })
      : undefined;
    if (rule) throw new Refusal(notAuthorized(caller, rule));
    throw restrictedFailure(error, { restricted, boundAttributes: facts.boundAttributes });
  }
  served.release();
  const materialization = served.materializationFor(result.metadata.sql);
  if (args.dry_run) return { sql: hideServerPaths(served.redact(result.metadata.sql)), schema: result.metadata.schema, sources };
  return {
    data: result.data,
    totalRows: result.totalRows,
    executionTime: Math.round((performance.now() - started) * 10) / 10,
    metadata: {
      schema: result.metadata.schema,
      ...(result.metadata.sourceName === undefined ? {} : { sourceName: result.metadata.sourceName }),
      ...(result.metadata.queryName === undefined ? {} : { queryName: result.metadata.queryName }),
      versionId: version.id,
      modelPath: args.modelPath,
      connection: result.metadata.connection,
      sql: hideServerPaths(served.redact(result.metadata.sql)),
      truncated: result.truncated,
      rowLimit,
      ...(materialization ? { materialization } : {}),
    },
    ...(result.malloyResult === undefined ? {} : { malloyResult: result.malloyResult }),
  };
}
