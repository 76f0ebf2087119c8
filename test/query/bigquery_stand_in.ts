/**
 * A loopback HTTP server standing in for the BigQuery REST API (v2), for the
 * BigQuery guard tests. `@google-cloud/bigquery` sends every request to
 * `BIGQUERY_EMULATOR_HOST` when it is set (its constructor reads it), and a
 * service-account key whose `universe_domain` is not `googleapis.com` makes
 * google-auth-library sign its own JWT for each request (self-signed JWT, no
 * token endpoint: gtoken 7 ignores `token_uri` and always calls Google's).
 * The stand-in checks that JWT's signature with the key's public half.
 *
 * It answers like Google for the calls Malloy makes: dry runs report a
 * `statementType` found by a minimal look at the SQL (a `;` between
 * statements is a SCRIPT, else the first keyword), query jobs and
 * `jobs.query` "run" any text (recorded in `executed`) and answer two rows
 * (`id` INTEGER, `name` STRING), results and table metadata are served.
 */
import { generateKeyPairSync, verify } from "node:crypto";

/** The rows every query answers. */
export const STAND_IN_ROWS = [{ id: 1, name: "a" }, { id: 2, name: "b" }];
const SCHEMA = { fields: [{ name: "id", type: "INTEGER", mode: "NULLABLE" }, { name: "name", type: "STRING", mode: "NULLABLE" }] };
const ROWS = STAND_IN_ROWS.map((r) => ({ f: [{ v: String(r.id) }, { v: r.name }] }));

/** One request the stand-in received. */
interface Received {
  method: string;
  path: string;
  /** The SQL of a job or `jobs.query`. */
  sql?: string;
  dryRun?: boolean;
}

/** A running stand-in. */
export interface BigQueryStandIn {
  /** What `BIGQUERY_EMULATOR_HOST` should be. */
  endpoint: string;
  /** A service-account key file (JSON text) the stand-in accepts. */
  keyJson: string;
  /** Every request, in order. */
  received: Received[];
  /** SQL texts run for real (non-dry jobs and `jobs.query`). */
  executed: string[];
  /** Requests refused for a missing or bad signature. */
  unauthorized: number;
  close(): void;
}

/** The JSON body of a request (the client gzips it). */
async function jsonBody(request: Request): Promise<Record<string, any>> {
  let bytes = new Uint8Array(await request.arrayBuffer());
  if (request.headers.get("content-encoding") === "gzip") bytes = Bun.gunzipSync(bytes);
  return bytes.length > 0 ? JSON.parse(new TextDecoder().decode(bytes)) : {};
}

/** BigQuery's verdict on a text, as far as a stand-in needs it. */
function statementType(sql: string): string {
  const text = sql.replace(/--[^\n]*/g, " ").replace(/\/\*[\s\S]*?\*\//g, " ").trim().replace(/;\s*$/, "");
  if (text.includes(";")) return "SCRIPT";
  const words = text.replace(/^\(+/, "").split(/\s+/).map((w) => w.toUpperCase());
  if (words[0] === "SELECT" || words[0] === "WITH") return "SELECT";
  if (["CREATE", "DROP", "ALTER", "EXPORT", "TRUNCATE"].includes(words[0] ?? "")) return `${words[0]}_${words[1]}`;
  return words[0] || "UNKNOWN";
}

/** Starts the stand-in on 127.0.0.1 (a free port) with a freshly generated RSA key. */
export function startBigQueryStandIn(projectId: string): BigQueryStandIn {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const received: Received[] = [];
  const executed: string[] = [];
  const state = { unauthorized: 0 };
  const job = (id: string, configuration: unknown, type: string, dryRun: boolean) => ({
    kind: "bigquery#job",
    id: `${projectId}:US.${id}`,
    jobReference: { projectId, jobId: id, location: "US" },
    configuration,
    status: { state: "DONE" },
    statistics: { query: { statementType: type, totalBytesProcessed: "0", ...(dryRun ? { schema: SCHEMA } : {}) } },
  });
  const results = (id: string) => ({
    kind: "bigquery#getQueryResultsResponse",
    jobReference: { projectId, jobId: id, location: "US" },
    jobComplete: true,
    schema: SCHEMA,
    rows: ROWS,
    totalRows: String(ROWS.length),
  });
  const signed = (request: Request) => {
    const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    const [head, body, signature] = token?.split(".") ?? [];
    if (!head || !body || !signature) return false;
    return verify("RSA-SHA256", Buffer.from(`${head}.${body}`), publicKey, Buffer.from(signature, "base64url"));
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/bigquery\/v2\/projects\/[^/]+/, "");
      const entry: Received = { method: request.method, path };
      received.push(entry);
      if (!signed(request)) {
        state.unauthorized++;
        return Response.json({ error: { code: 401, message: "Request had invalid authentication credentials." } }, { status: 401 });
      }
      const body = request.method === "POST" ? await jsonBody(request) : {};
      if (request.method === "POST" && path === "/jobs") {
        const sql = String(body.configuration?.query?.query ?? "");
        const dryRun = body.configuration?.dryRun === true;
        const urlProject = /^\/bigquery\/v2\/projects\/([^/]+)/.exec(url.pathname)?.[1];
        if (body.jobReference?.projectId !== urlProject) {
          return Response.json({ error: { code: 400, message: "jobReference.projectId must name the project of the request" } }, { status: 400 });
        }
        Object.assign(entry, { sql, dryRun });
        if (!dryRun) executed.push(sql);
        const id = String(body.jobReference?.jobId ?? crypto.randomUUID());
        return Response.json(job(id, body.configuration, statementType(sql), dryRun));
      }
      if (request.method === "POST" && path === "/queries") {
        const sql = String(body.query ?? "");
        Object.assign(entry, { sql, dryRun: false });
        executed.push(sql);
        return Response.json({ ...results(`job_${crypto.randomUUID().replaceAll("-", "")}`), kind: "bigquery#queryResponse" });
      }
      let m = /^\/queries\/([^/]+)$/.exec(path);
      if (request.method === "GET" && m) return Response.json(results(m[1]!));
      m = /^\/jobs\/([^/]+)$/.exec(path);
      if (request.method === "GET" && m) return Response.json(job(m[1]!, {}, "SELECT", false));
      m = /^\/jobs\/([^/]+)\/cancel$/.exec(path);
      if (request.method === "POST" && m) return Response.json({ kind: "bigquery#jobCancelResponse", job: job(m[1]!, {}, "SELECT", false) });
      m = /^\/datasets\/([^/]+)\/tables\/([^/]+)$/.exec(path);
      if (request.method === "GET" && m) {
        return Response.json({ kind: "bigquery#table", tableReference: { projectId, datasetId: m[1], tableId: m[2] }, schema: SCHEMA, type: "TABLE" });
      }
      return Response.json({ error: { code: 404, message: `Not found: ${request.method} ${path}` } }, { status: 404 });
    },
  });
  const keyJson = JSON.stringify({
    type: "service_account",
    project_id: projectId,
    private_key_id: "stand-in-key",
    private_key: pem,
    client_email: `malloy@${projectId}.iam.gserviceaccount.com`,
    client_id: "1",
    token_uri: `http://127.0.0.1:${server.port}/token`,
    // not googleapis.com: the client signs its own JWT per request instead of calling Google's token endpoint
    universe_domain: "stand-in.test",
  });
  return {
    endpoint: `http://127.0.0.1:${server.port}/bigquery/v2`,
    keyJson,
    received,
    executed,
    get unauthorized() {
      return state.unauthorized;
    },
    close: () => server.stop(true),
  };
}
