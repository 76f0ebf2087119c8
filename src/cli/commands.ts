/**
 * The CLI's commands besides `publish`: `login`, `logout`, `query`, `runs`
 * and `keys`. Each answers its exit code; `--json` prints the API's answer.
 * @module
 */
import type { Args } from "./args.ts";
import { call, modelSegments, organization, requireCredential, seg, sessionOf, target } from "./client.ts";
import { credentialsFile, normalizeServer, readStore, writeStore } from "./credentials.ts";
import { CliError, UsageError } from "./errors.ts";
import { out, outJson, table } from "./terminal.ts";

async function readAllStdin(): Promise<string> {
  return await new Response(Bun.stdin.stream()).text();
}

/** Reads a line typed at the terminal, echoed or not. */
async function prompt(question: string, options: { hidden: boolean }): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) throw new UsageError("no terminal to ask on: pass --user and --password-stdin", "login");
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let text = "";
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString("utf8")) {
          if (ch === "\r" || ch === "\n") {
            stdin.off("data", onData);
            process.stderr.write("\n");
            resolve(text);
            return;
          }
          if (ch === "\u0003") {
            stdin.off("data", onData);
            process.stderr.write("\n");
            reject(new CliError("cancelled", 130, "CANCELLED"));
            return;
          }
          if (ch === "\u007f" || ch === "\b") {
            if (text.length > 0 && !options.hidden) process.stderr.write("\b \b");
            text = text.slice(0, -1);
          } else {
            text += ch;
            if (!options.hidden) process.stderr.write(ch);
          }
        }
      };
      stdin.on("data", onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
  }
}

/** `login`: signs in and stores the access token for the server. */
export async function loginCommand(args: Args): Promise<number> {
  const store = await readStore();
  let server: string;
  try {
    server = normalizeServer(args.values.server ?? (process.env.MALLOY_PLATFORM_SERVER || undefined) ?? store.current ?? "http://localhost:4000");
  } catch (error) {
    throw new UsageError((error as Error).message, "login");
  }
  const user = args.values.user ?? (await prompt(`User name or email for ${server}: `, { hidden: false })).trim();
  if (!user) throw new UsageError("give a user name: --user NAME", "login");
  let password: string;
  if (args.flags.has("password-stdin")) password = (await readAllStdin()).replace(/\r?\n$/, "");
  else password = await prompt("Password: ", { hidden: true });
  if (!password) throw new UsageError("the password is empty", "login");
  const session = { server };
  const answer = await call<{ accessToken: string; expiresIn: number }>(session, "POST", "/auth/token", {
    body: user.includes("@") ? { email: user, password } : { userName: user, password },
  }).catch((error: CliError) => {
    if (error.exitCode === 3) throw new CliError(`${server} refused the user name or password`, 3, error.code);
    throw error;
  });
  const expiresAt = new Date(Date.now() + answer.expiresIn * 1000).toISOString();
  const previous = store.servers[server];
  store.servers[server] = {
    token: answer.accessToken,
    userName: user,
    expiresAt,
    ...(args.values.org ?? previous?.org ? { org: args.values.org ?? previous?.org } : {}),
    ...(args.values.env ?? previous?.env ? { env: args.values.env ?? previous?.env } : {}),
  };
  store.current = server;
  await writeStore(store);
  if (args.flags.has("json")) outJson({ server, userName: user, expiresAt, file: credentialsFile() });
  else out(`Logged in to ${server} as ${user} (until ${expiresAt}); token stored in ${credentialsFile()}`);
  return 0;
}

/** `logout`: forgets the stored token of the server. */
export async function logoutCommand(args: Args): Promise<number> {
  const store = await readStore();
  const server = normalizeServer(args.values.server ?? store.current ?? "http://localhost:4000");
  const had = Boolean(store.servers[server]);
  delete store.servers[server];
  if (store.current === server) store.current = Object.keys(store.servers)[0];
  await writeStore(store);
  if (args.flags.has("json")) outJson({ server, removed: had });
  else out(had ? `Logged out of ${server}` : `No login stored for ${server}`);
  return 0;
}

interface QueryAnswer {
  data: Record<string, unknown>[];
  totalRows: number;
  executionTime: number;
  metadata?: { schema?: Array<{ name: string }>; versionId?: string };
}

/** `query PKG MODEL [QUERY]`: runs Malloy text, or a view with `--source` and `--view`. */
export async function queryCommand(args: Args): Promise<number> {
  const [pkg, model, text] = args.positionals;
  if (!pkg || !model) throw new UsageError("give the package and the model: malloy-platform query PKG MODEL 'run: source -> view'", "query");
  const view = args.values.view;
  const source = args.values.source;
  if (text !== undefined && view) throw new UsageError("give Malloy text or --view, not both", "query");
  if (text === undefined && !view) throw new UsageError("give Malloy text (or '-' to read it from standard input), or --source and --view", "query");
  const session = await sessionOf(args);
  requireCredential(session);
  const { org, env } = await target(session, args);
  const body: Record<string, unknown> = {};
  if (view) {
    body.queryName = view;
    if (source) body.sourceName = source;
  } else {
    body.query = text === "-" ? await readAllStdin() : text;
  }
  if (args.values.version) body.versionId = args.values.version;
  if (args.values.limit) {
    const limit = Number(args.values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit is a positive whole number of rows", "query");
    body.limit = limit;
  }
  const answer = await call<QueryAnswer>(session, "POST", `/organizations/${seg(org)}/environments/${seg(env)}/packages/${seg(pkg)}/models/${modelSegments(model)}/query`, { body });
  if (args.flags.has("json")) {
    outJson(answer);
    return 0;
  }
  out(table(answer.data, answer.metadata?.schema?.map((c) => c.name)));
  const shown = answer.data.length;
  out(`\n${shown} row${shown === 1 ? "" : "s"}${answer.totalRows > shown ? ` of ${answer.totalRows}` : ""} in ${Math.round(answer.executionTime)} ms${answer.metadata?.versionId ? ` (version ${answer.metadata.versionId})` : ""}`);
  return 0;
}

interface RunView {
  id: string;
  state: string;
  versionId?: string;
  createdAt: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  error?: string | null;
  units?: Array<{ kind: string; target: string; state: string; rows?: number; valueCount?: number; error?: string | null }>;
}

function unitsDone(run: RunView): string {
  const units = run.units ?? [];
  return `${units.filter((u) => !["queued", "running"].includes(u.state)).length}/${units.length}`;
}

/** `runs PKG [RUN_ID]`: a package's runs, or one run with its units; `--cancel` cancels it. */
export async function runsCommand(args: Args): Promise<number> {
  const [pkg, runId] = args.positionals;
  if (!pkg) throw new UsageError("give the package: malloy-platform runs PKG [RUN_ID]", "runs");
  if (args.flags.has("cancel") && !runId) throw new UsageError("--cancel needs the run: malloy-platform runs PKG RUN_ID --cancel", "runs");
  const session = await sessionOf(args);
  requireCredential(session);
  const { org, env } = await target(session, args);
  const path = `/organizations/${seg(org)}/environments/${seg(env)}/packages/${seg(pkg)}/runs`;
  if (!runId) {
    const runs = await call<RunView[]>(session, "GET", `${path}?limit=${Number(args.values.limit ?? 20) || 20}`);
    if (args.flags.has("json")) {
      outJson(runs);
      return 0;
    }
    if (runs.length === 0) {
      out(`No runs of ${pkg} yet (a publish starts one)`);
      return 0;
    }
    const took = (r: RunView) => (r.startedAt && r.finishedAt ? `${((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000).toFixed(1)} s` : "");
    out(table(runs.map((r) => ({ run: r.id, version: r.versionId ?? "", state: r.state, created: r.createdAt, took: took(r), error: r.error ?? "" }))));
    out(`
Show one run with its units: malloy-platform runs ${pkg} RUN_ID`);
    return 0;
  }
  const run = args.flags.has("cancel")
    ? await call<RunView>(session, "POST", `${path}/${seg(runId)}?action=cancel`)
    : await call<RunView>(session, "GET", `${path}/${seg(runId)}`);
  if (args.flags.has("json")) {
    outJson(run);
    return 0;
  }
  out(`Run ${run.id}${run.versionId ? ` of ${pkg} ${run.versionId}` : ""}: ${run.state}, ${unitsDone(run)} units done${run.error ? `\n  ${run.error}` : ""}`);
  if ((run.units ?? []).length > 0) {
    out("");
    out(table((run.units ?? []).map((u) => ({ kind: u.kind, target: u.target, state: u.state, count: u.rows ?? u.valueCount ?? "", error: u.error ?? "" }))));
  }
  return run.state === "failed" ? 1 : 0;
}

interface KeyView {
  name: string;
  groupName: string;
  createdAt: string;
  expiresAt: string | null;
  expired?: boolean;
  secret?: string;
}

/** `keys list|create|revoke GROUP [NAME]`: API keys (group tokens) of a group. */
export async function keysCommand(args: Args): Promise<number> {
  const [action, group, name] = args.positionals;
  if (!action || !["list", "create", "revoke"].includes(action)) throw new UsageError("give an action: keys list GROUP, keys create GROUP NAME, keys revoke GROUP NAME", "keys");
  if (!group) throw new UsageError(`give the group: malloy-platform keys ${action} GROUP${action === "list" ? "" : " NAME"}`, "keys");
  if (action !== "list" && !name) throw new UsageError(`give the key's name: malloy-platform keys ${action} ${group} NAME`, "keys");
  const session = await sessionOf(args);
  requireCredential(session);
  const org = await organization(session, args);
  const path = `/organizations/${seg(org)}/groups/${seg(group)}/tokens`;
  const json = args.flags.has("json");
  if (action === "list") {
    const keys = await call<KeyView[]>(session, "GET", path);
    if (json) outJson(keys);
    else if (keys.length === 0) out(`Group ${group} has no API keys`);
    else out(table(keys.map((k) => ({ name: k.name, created: k.createdAt, expires: k.expiresAt ?? "", expired: k.expired ? "yes" : "" }))));
    return 0;
  }
  if (action === "create") {
    const query = new URLSearchParams({ name: name! });
    if (args.values.expires) query.set("expiresAt", args.values.expires);
    const key = await call<KeyView>(session, "POST", `${path}?${query}`);
    if (json) {
      outJson(key);
      return 0;
    }
    out(`Created API key '${key.name}' of group ${group}${key.expiresAt ? ` (expires ${key.expiresAt})` : ""}.`);
    out("Its secret is shown only now; keep it somewhere safe:");
    out("");
    out(`  ${key.secret}`);
    out("");
    out(`Use it as: Authorization: ApiKey <secret>   (or MALLOY_PLATFORM_API_KEY=<secret> for this CLI)`);
    return 0;
  }
  await call(session, "DELETE", `${path}/${seg(name!)}`);
  if (json) outJson({ organization: org, group, name, revoked: true });
  else out(`Revoked API key '${name}' of group ${group}; it stops working at once`);
  return 0;
}
