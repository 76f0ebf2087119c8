/**
 * The CLI's connection to a service: which server, which credential, and the
 * calls of the REST API with its errors turned into {@link CliError}s that say
 * what to do.
 * @module
 */
import type { Args } from "./args.ts";
import { type Login, normalizeServer, readStore } from "./credentials.ts";
import { CliError } from "./errors.ts";

/** Default server when nothing names one. */
const DEFAULT_SERVER = "http://localhost:4000";

/** A server and the credential to call it with. */
export interface Session {
  server: string;
  /** `Authorization` header value, absent when not logged in. */
  authorization?: string;
  login?: Login;
}

/**
 * The session of a command: `--server`, else `MALLOY_PLATFORM_SERVER`, else
 * the server of the last login; credential `--api-key` or
 * `MALLOY_PLATFORM_API_KEY` (a group token), else `MALLOY_PLATFORM_TOKEN`,
 * else the stored login of that server.
 */
export async function sessionOf(args: Args): Promise<Session> {
  const store = await readStore();
  const named = args.values.server ?? (process.env.MALLOY_PLATFORM_SERVER || undefined);
  let server: string;
  try {
    server = normalizeServer(named ?? store.current ?? DEFAULT_SERVER);
  } catch (error) {
    throw new CliError((error as Error).message, 2, "USAGE");
  }
  const login = store.servers[server];
  const apiKey = args.values["api-key"] ?? (process.env.MALLOY_PLATFORM_API_KEY || undefined);
  if (apiKey) return { server, authorization: `ApiKey ${apiKey}`, login };
  if (process.env.MALLOY_PLATFORM_TOKEN) return { server, authorization: `Bearer ${process.env.MALLOY_PLATFORM_TOKEN}`, login };
  if (login) return { server, authorization: `Bearer ${login.token}`, login };
  return { server };
}

/** Throws when the session has no credential. */
export function requireCredential(session: Session): void {
  if (session.authorization) return;
  throw new CliError(
    `not logged in to ${session.server}: run 'malloy-platform login --server ${session.server}' (or set MALLOY_PLATFORM_API_KEY)`,
    3,
    "AUTHENTICATION_REQUIRED",
  );
}

/** Options of {@link call}. */
export interface CallOptions {
  body?: unknown;
  /** A body sent as it is (multipart, streams); `headers` then say its type. */
  raw?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Answer the response without reading it (streams). */
  stream?: boolean;
}

/** Fetches `path` (below the server) and names the server when it cannot be reached. */
export async function send(session: Session, method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (session.authorization) headers.authorization = session.authorization;
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  try {
    return await fetch(`${session.server}${path}`, { method, headers, body, signal: options.signal, duplex: "half" } as RequestInit);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new CliError(
      `cannot reach ${session.server}: ${error instanceof Error ? error.message : String(error)}; is the service running there? (start it with 'bun start', or pass --server)`,
      4,
      "UNREACHABLE",
    );
  }
}

/** The error of a refused call, with what to do about a refused credential. */
export async function refusal(session: Session, response: Response): Promise<CliError> {
  const text = await response.text().catch(() => "");
  let code = `HTTP_${response.status}`;
  let message = text.slice(0, 500) || response.statusText;
  try {
    type Problem = { file?: string; line?: number; column?: number; message?: string };
    const parsed = JSON.parse(text) as { code?: string; message?: string; problems?: Problem[]; details?: { problems?: Problem[] } };
    code = parsed.code ?? code;
    message = parsed.message ?? message;
    const problems = parsed.details?.problems ?? parsed.problems ?? [];
    if (problems.length > 0) {
      message += `\n${problems.slice(0, 20).map((p) => `  ${p.file ?? ""}${p.line ? `:${p.line}` : ""}${p.column ? `:${p.column}` : ""}: ${p.message ?? ""}`).join("\n")}`;
    }
  } catch {
    // not JSON: the text itself
  }
  if (response.status === 401) {
    const how = session.authorization?.startsWith("ApiKey")
      ? "check the API key"
      : `run 'malloy-platform login --server ${session.server}'`;
    return new CliError(`${session.server} refused the credentials (${message}); ${how}`, 3, code);
  }
  return new CliError(message, 1, code);
}

/** Calls the API and answers the parsed JSON body; a refusal throws. */
export async function call<T = unknown>(session: Session, method: string, path: string, options: CallOptions = {}): Promise<T> {
  const response = await send(session, method, `/api/v0${path}`, options);
  if (!response.ok) throw await refusal(session, response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Path segment, encoded. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** A model path as URL segments (`models/x.malloy` stays two segments). */
export function modelSegments(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** The organization of a command: `--org`, `MALLOY_PLATFORM_ORG`, the login's default, or the only one the caller belongs to. */
export async function organization(session: Session, args: Args): Promise<string> {
  const named = args.values.org ?? (process.env.MALLOY_PLATFORM_ORG || undefined) ?? session.login?.org;
  if (named) return named;
  const orgs = await call<Array<{ name: string }>>(session, "GET", "/organizations");
  if (orgs.length === 1) return orgs[0]!.name;
  throw new CliError(
    orgs.length === 0
      ? "you belong to no organization on this server; ask an administrator to add you"
      : `pass --org: you belong to ${orgs.length} organizations (${orgs.map((o) => o.name).join(", ")})`,
    2,
    "USAGE",
  );
}

/** The organization and environment of a command: flags, the login's defaults, or the only one there is. */
export async function target(session: Session, args: Args): Promise<{ org: string; env: string }> {
  const org = await organization(session, args);
  const named = args.values.env ?? (process.env.MALLOY_PLATFORM_ENV || undefined) ?? session.login?.env;
  if (named) return { org, env: named };
  const envs = await call<Array<{ name: string }>>(session, "GET", `/organizations/${seg(org)}/environments`);
  if (envs.length === 1) return { org, env: envs[0]!.name };
  throw new CliError(
    envs.length === 0
      ? `organization '${org}' has no environment you can see; create one (POST /api/v0/organizations/${org}/environments) or ask for access`
      : `pass --env: organization '${org}' has ${envs.length} environments (${envs.map((e) => e.name).join(", ")})`,
    2,
    "USAGE",
  );
}
