/**
 * One read-only statement per query on BigQuery connections, as BigQuery
 * itself judges it.
 *
 * BigQuery runs multi-statement scripts (`SELECT 1; DELETE FROM t WHERE
 * true`) and DML/DDL in any query job, and `@malloydata/db-bigquery` sends
 * `sql()` texts and queries as they are. Every request the connection's
 * `@google-cloud/bigquery` client makes goes through its `request` method
 * (jobs, results, table metadata alike); {@link guardBigQuery} wraps that
 * method on the connection's client, so nothing Malloy does can go around it:
 * - a query (`jobs.insert` with a query configuration, or `jobs.query`) is
 *   first sent as a dry run (`jobs.insert` with `dryRun`, nothing executed or
 *   billed); unless BigQuery answers `statementType: "SELECT"` (a script
 *   answers `SCRIPT`, DML and DDL their own types), the query is refused
 *   with a `not_allowed` QueryError and never sent;
 * - Malloy's own dry runs (the columns of a `sql()` source) are sent, and
 *   their answer is refused unless it is a `SELECT`;
 * - query options that write or keep state are refused: a destination table,
 *   write/create dispositions, sessions (`createSession`,
 *   `connectionProperties`), legacy SQL, external table definitions; only the
 *   options Malloy uses pass;
 * - any other request that is not a read (`GET`) or a job cancel (creating
 *   datasets, inserting rows, deleting or patching tables, load, copy and
 *   extract jobs) is refused, and streamed uploads too.
 * Texts BigQuery judged `SELECT` are remembered per connection (statement
 * type depends on the text alone), so a repeated query costs no second dry run.
 * @module
 */

import type { Connection } from "@malloydata/malloy";
import { notAllowed } from "./sql_guard.ts";

/** What `request` of `@google-cloud/common`'s `Service` takes. */
interface RequestOptions {
  method?: string;
  uri: string;
  json?: Record<string, unknown>;
  projectId?: string;
  qs?: Record<string, unknown>;
}

type Callback = (error: Error | null, body?: unknown, response?: unknown) => void;

interface BigQueryClient {
  projectId?: string;
  request: (options: RequestOptions, callback?: Callback) => unknown;
  requestStream: (options: RequestOptions) => unknown;
  [GUARDED]?: boolean;
}

const GUARDED = Symbol("bigQueryGuard");
/** Distinct SELECT texts remembered per connection. */
const REMEMBERED = 500;

/** Options of a query job (`configuration.query`) that Malloy sets and that neither write nor keep state. */
const JOB_QUERY_OPTIONS = new Set(["query", "useLegacySql", "useQueryCache", "defaultDataset", "maximumBytesBilled", "priority", "parameterMode", "queryParameters"]);
/** Fields of a job's `configuration` besides `query`. */
const JOB_OPTIONS = new Set(["query", "dryRun", "labels", "jobTimeoutMs", "jobType"]);
/** Fields of a `jobs.query` request. */
const QUERY_REQUEST_OPTIONS = new Set([
  "kind",
  "query",
  "useLegacySql",
  "useQueryCache",
  "defaultDataset",
  "maximumBytesBilled",
  "parameterMode",
  "queryParameters",
  "location",
  "labels",
  "formatOptions",
  "maxResults",
  "timeoutMs",
  "requestId",
  "jobCreationMode",
]);

/**
 * Guards a BigQuery connection (see the module notes): every query is dry-run
 * first and runs only when BigQuery calls it a `SELECT`. Other connections
 * pass through; a BigQuery connection whose client cannot be reached is refused.
 */
export function guardBigQuery(connection: Connection): Connection {
  if (connection.dialectName !== "standardsql") return connection;
  const client = (connection as unknown as { bigQuery?: BigQueryClient }).bigQuery;
  if (!client || typeof client.request !== "function" || typeof client.requestStream !== "function") {
    throw notAllowed("this BigQuery connection's client cannot be checked, so it does not run queries");
  }
  if (client[GUARDED]) return connection;
  const send = client.request.bind(client);
  const sendStream = client.requestStream.bind(client);
  const selects = new Map<string, true>();

  const call = (options: RequestOptions) =>
    new Promise<unknown>((resolve, reject) => {
      send(options, (error, body) => (error ? reject(error) : resolve(body)));
    });

  /** Dry-runs `query` (with its parameters and default dataset) and refuses it unless BigQuery calls it a SELECT. */
  const checkQuery = async (query: Record<string, unknown>, location: unknown, projectId: string | undefined) => {
    const text = String(query.query ?? "");
    if (selects.has(text)) return;
    const dryRun: Record<string, unknown> = { query: text, useLegacySql: false };
    for (const key of ["defaultDataset", "parameterMode", "queryParameters"]) if (query[key] !== undefined) dryRun[key] = query[key];
    const body = await call({
      method: "POST",
      uri: "/jobs",
      projectId,
      json: {
        configuration: { query: dryRun, dryRun: true },
        jobReference: {
          projectId: projectId ?? client.projectId,
          jobId: `malloy_check_${crypto.randomUUID().replaceAll("-", "")}`,
          location: location ?? undefined,
        },
      },
    });
    refuseUnlessSelect(body);
    selects.set(text, true);
    if (selects.size > REMEMBERED) selects.delete(selects.keys().next().value!);
  };

  /**
   * What must happen around a request: nothing (a read, sent as it comes),
   * a dry run before it (a query), a check of its answer (Malloy's own dry
   * run). Throws for a request that is never sent.
   */
  const admit = (options: RequestOptions): { before?: () => Promise<void>; after?: (body: unknown) => void } => {
    const method = (options.method ?? "GET").toUpperCase();
    const path = options.uri.replace(/^\/+|\/+$/g, "");
    if (method === "GET" || method === "HEAD") return {};
    if (method === "POST" && /^jobs\/[^/]+\/cancel$/.test(path)) return {};
    if (method === "POST" && path === "jobs") {
      const job = options.json ?? {};
      const configuration = (job.configuration ?? {}) as Record<string, unknown>;
      const query = configuration.query as Record<string, unknown> | undefined;
      if (!query) throw notAllowed("a BigQuery connection runs query jobs only (no load, copy or extract jobs)");
      refuseOptions(configuration, JOB_OPTIONS, "job option");
      refuseOptions(query, JOB_QUERY_OPTIONS, "query option");
      if (query.useLegacySql === true) throw notAllowed("legacy SQL is not run on a BigQuery connection");
      if (configuration.dryRun) return { after: refuseUnlessSelect };
      const reference = (job.jobReference ?? {}) as Record<string, unknown>;
      const projectId = options.projectId ?? (reference.projectId as string | undefined);
      return { before: () => checkQuery(query, reference.location, projectId) };
    }
    if (method === "POST" && path === "queries") {
      const request = options.json ?? {};
      refuseOptions(request, QUERY_REQUEST_OPTIONS, "query option");
      if (request.useLegacySql === true) throw notAllowed("legacy SQL is not run on a BigQuery connection");
      return { before: () => checkQuery(request, request.location, options.projectId) };
    }
    throw notAllowed(`a BigQuery connection only reads: the request ${method} ${path.replace(/\/.*$/, "/...")} is not sent`);
  };

  client.request = (options: RequestOptions, callback?: Callback) => {
    const run = (done: Callback) => {
      let plan: ReturnType<typeof admit>;
      try {
        plan = admit(options);
      } catch (refused) {
        done(refused as Error);
        return;
      }
      const forward = () =>
        send(options, (error, body, response) => {
          if (!error && plan.after) {
            try {
              plan.after(body);
            } catch (refused) {
              done(refused as Error, undefined, response);
              return;
            }
          }
          done(error, body, response);
        });
      // reads go out at once, as without the guard; a query waits for its dry run
      if (!plan.before) return void forward();
      plan.before().then(forward, (error: Error) => done(error));
    };
    if (callback) return void run(callback);
    return new Promise((resolve, reject) => run((error, body) => (error ? reject(error) : resolve(body))));
  };
  client.requestStream = (options: RequestOptions) => {
    const method = (options.method ?? "GET").toUpperCase();
    if (method !== "GET") throw notAllowed("a BigQuery connection only reads: uploads are not sent");
    return sendStream(options);
  };
  client[GUARDED] = true;
  return connection;
}

/** Refuses a dry run's answer unless BigQuery judged the text one SELECT statement. */
function refuseUnlessSelect(body: unknown): void {
  const statistics = (body as { statistics?: { query?: { statementType?: string } } } | undefined)?.statistics;
  const type = statistics?.query?.statementType;
  if (type === "SELECT") return;
  const what = type === "SCRIPT" ? "a script of several statements" : type ? `a ${type} statement` : "not a query";
  throw notAllowed(`BigQuery reads this text as ${what}; a BigQuery connection runs exactly one SELECT per query`);
}

/** Refuses any option (with a value) that is not in `allowed`. */
function refuseOptions(options: Record<string, unknown>, allowed: Set<string>, what: string): void {
  const extra = Object.keys(options).filter((key) => options[key] !== undefined && options[key] !== null && !allowed.has(key));
  if (extra.length > 0) throw notAllowed(`the BigQuery ${what}${extra.length > 1 ? "s" : ""} ${extra.join(", ")} ${extra.length > 1 ? "are" : "is"} not sent: a query only reads`);
}
