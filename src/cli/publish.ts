/**
 * `malloy-platform publish DIR`: zips a package folder, hashes it, uploads it
 * with its version (from `publisher.json` or `--version`) and follows the
 * publish's run on the package's event stream (no polling), with progress
 * bars on a terminal; ends with the package's query, app and MCP URLs.
 * @module
 */
import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { FolderTooLargeError, readFolder, zipFolderFiles } from "../watch/folder.ts";
import type { Args } from "./args.ts";
import { call, modelSegments, refusal, requireCredential, send, seg, type Session, sessionOf, target } from "./client.ts";
import { CliError, UsageError } from "./errors.ts";
import { openEvents } from "./events.ts";
import { bar, out, outJson, size, statusLine } from "./terminal.ts";

const NAME = /^[a-zA-Z0-9_-]+$/;
const SEMVER = /^[0-9]+\.[0-9]+\.[0-9]+$/;
/** Bytes sent per chunk of the upload (the progress bar's step). */
const CHUNK = 64 * 1024;

interface Manifest {
  name?: string;
  version?: string;
  description?: string;
}

async function manifestOf(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(resolve(dir, "publisher.json"), "utf8");
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Manifest;
  } catch {
    // reported below
  }
  throw new CliError(`${dir}/publisher.json is not a JSON object; fix it or remove it`, 2, "USAGE");
}

/** A multipart body built here, so its bytes can be counted as they are sent. */
function multipart(parts: Array<{ name: string; value: string | Uint8Array; filename?: string; type?: string }>): { body: Uint8Array; type: string } {
  const boundary = `----malloy-platform-${crypto.randomUUID()}`;
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ""}`;
    chunks.push(enc.encode(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ""}\r\n`));
    chunks.push(typeof part.value === "string" ? enc.encode(part.value) : part.value);
    chunks.push(enc.encode("\r\n"));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** A body stream that reports how many bytes were taken. */
function counted(body: Uint8Array, onProgress: (sent: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= body.length) {
        controller.close();
        return;
      }
      const next = body.subarray(sent, Math.min(body.length, sent + CHUNK));
      sent += next.length;
      controller.enqueue(next);
      onProgress(sent);
    },
  });
}

interface RunState {
  state: string;
  unitsDone: number;
  unitsTotal: number;
  error?: string | null;
}

const ENDED = new Set(["succeeded", "failed", "cancelled"]);

async function runSnapshot(session: Session, pkgPath: string, runId: string): Promise<RunState> {
  const run = await call<{ state: string; error?: string | null; units?: Array<{ state: string }> }>(session, "GET", `${pkgPath}/runs/${seg(runId)}`);
  const units = run.units ?? [];
  return { state: run.state, error: run.error, unitsTotal: units.length, unitsDone: units.filter((u) => !["queued", "running"].includes(u.state)).length };
}

/**
 * Follows a run on the package's event stream until it ends: one read of the
 * run when the stream is ready (what happened before it opened), then its
 * `run_started`, `run_progress` and `run_finished` events.
 */
async function followRun(session: Session, pkgPath: string, runId: string, options: { timeoutMs: number; onChange: (s: RunState) => void }): Promise<RunState> {
  const stream = await openEvents(session, pkgPath);
  const timer = setTimeout(() => stream.close(), options.timeoutMs);
  let state: RunState = { state: "queued", unitsDone: 0, unitsTotal: 0 };
  try {
    for await (const e of stream.events) {
      if (e.event === "ready") {
        state = await runSnapshot(session, pkgPath, runId);
      } else if (e.event === "revoked") {
        throw new CliError("the package's event stream ended: your access to the package was removed", 1, "REVOKED");
      } else if (e.data.runId === runId) {
        if (e.event === "run_started") state = { ...state, state: "running", unitsTotal: Number(e.data.unitsTotal ?? state.unitsTotal) };
        else if (e.event === "run_progress") state = { ...state, state: "running", unitsDone: Number(e.data.unitsDone), unitsTotal: Number(e.data.unitsTotal) };
        else if (e.event === "run_finished") state = { ...state, state: String(e.data.state) };
        else continue;
      } else {
        continue;
      }
      options.onChange(state);
      if (ENDED.has(state.state)) break;
    }
  } finally {
    clearTimeout(timer);
    stream.close();
  }
  if (!ENDED.has(state.state)) {
    throw new CliError(`the run ${runId} had not ended after ${Math.round(options.timeoutMs / 1000)} s; follow it with 'malloy-platform runs'`, 1, "TIMEOUT");
  }
  // the run's error (what failed) is read once it ended
  if (state.state !== "succeeded") state = { ...state, error: (await runSnapshot(session, pkgPath, runId)).error };
  return state;
}

/** What a run is doing, in words: `running, 2/5 tables and indexes built`. */
function runDetail(s: RunState): string {
  if (s.unitsTotal === 0) return s.state === "running" || s.state === "queued" ? `${s.state}: indexing the models for search` : `${s.state} (no tables or indexes to build)`;
  return `${s.state}, ${s.unitsDone}/${s.unitsTotal} tables and indexes built`;
}

/** Runs `publish`; answers the exit code. */
export async function publishCommand(args: Args): Promise<number> {
  const dir = args.positionals[0];
  if (!dir) throw new UsageError("give the package folder: malloy-platform publish DIR", "publish");
  const json = args.flags.has("json");
  const session = await sessionOf(args);
  requireCredential(session);
  const manifest = await manifestOf(dir);
  const name = args.values.name ?? manifest.name ?? basename(resolve(dir));
  if (!NAME.test(name)) throw new UsageError(`package name '${name}' may hold only letters, digits, '_' and '-'; pass --name`, "publish");
  const version = args.values.version ?? manifest.version;
  if (!version) throw new UsageError(`no version: add "version": "1.0.0" to ${dir}/publisher.json or pass --version 1.0.0`, "publish");
  if (!SEMVER.test(version)) throw new UsageError(`version '${version}' must be three dot-separated integers, e.g. 1.0.0`, "publish");
  // the service's default MAX_PACKAGE_BYTES: a folder over it is refused before it is read into memory
  const files = await readFolder(dir, { maxBytes: 256 * 1024 * 1024 }).catch((error) => {
    if (error instanceof FolderTooLargeError) throw new CliError(`${dir} holds more than 256 MiB, over what a package may hold; leave large or generated files out`, 2, "USAGE");
    throw error;
  });
  if (files.size === 0) throw new CliError(`${dir} is not a folder with files in it`, 2, "USAGE");
  if (![...files.keys()].some((p) => p.endsWith(".malloy"))) throw new CliError(`${dir} holds no .malloy model; a package needs one`, 2, "USAGE");
  const zip = zipFolderFiles(files);
  const md5 = new Bun.CryptoHasher("md5").update(zip).digest("hex");
  const { org, env } = await target(session, args);
  const pkgPath = `/organizations/${seg(org)}/environments/${seg(env)}/packages/${seg(name)}`;
  const description = args.values.description ?? manifest.description;
  const form = multipart([
    { name: "package", value: JSON.stringify(description ? { description } : {}), type: "application/json" },
    { name: "version", value: JSON.stringify({ id: version }), type: "application/json" },
    { name: "md5Hash", value: md5 },
    { name: "packageFile", value: zip, filename: `${name}-${version}.zip`, type: "application/zip" },
  ]);

  const line = statusLine();
  const label = `${name} ${version}`;
  line.update(bar("upload", 0, form.body.length, `${label}  0 B / ${size(form.body.length)}`));
  const response = await send(session, "POST", `/api/v0${pkgPath}`, {
    raw: counted(form.body, (sent) => line.update(bar("upload", sent, form.body.length, `${label}  ${size(sent)} / ${size(form.body.length)}`))),
    headers: { "content-type": form.type, "content-length": String(form.body.length) },
  });
  if (!response.ok) {
    line.done(bar("upload", form.body.length, form.body.length, `${label}  refused`));
    const error = await refusal(session, response);
    if (error.code === "CONFLICT") error.message += `; bump "version" in publisher.json or pass --version`;
    throw error;
  }
  const published = await response.json() as { runId?: string; models?: string[]; failedNotebooks?: unknown[]; accessWarnings?: { message: string }[] };
  const warnings = (published.accessWarnings ?? []).map((w) => w.message);
  line.done(bar("upload", form.body.length, form.body.length, `${label}  ${size(zip.length)} zip, ${files.size} files, md5 ${md5.slice(0, 8)}`));

  let run: RunState | undefined;
  if (published.runId && !args.flags.has("no-wait")) {
    const timeoutMs = Number(args.values.timeout ?? 600) * 1000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError("--timeout is a number of seconds", "publish");
    run = await followRun(session, pkgPath, published.runId, {
      timeoutMs,
      onChange: (s) => line.update(bar("run", s.unitsDone, Math.max(1, s.unitsTotal), runDetail(s))),
    });
    line.done(bar("run", run.unitsTotal === 0 || run.state === "succeeded" ? 1 : run.unitsDone, Math.max(1, run.unitsTotal), runDetail(run)));
  }

  const api = `${session.server}/api/v0${pkgPath}`;
  const models = published.models ?? [];
  // the model named after the package, else the first .malloy one
  const firstModel = models.find((m) => m === `${name}.malloy` || m.endsWith(`/${name}.malloy`)) ?? models.find((m) => m.endsWith(".malloy")) ?? models[0];
  const urls = {
    query: firstModel ? `${api}/models/${modelSegments(firstModel)}/query` : `${api}/models`,
    models: `${api}/models`,
    app: files.has("public/index.html") ? `${api}/app/` : null,
    mcp: `${session.server}/mcp/${seg(org)}`,
    events: `${api}/events`,
  };
  if (json) {
    outJson({ organization: org, environment: env, package: name, version, md5, models, runId: published.runId ?? null, run: run ?? null, urls, accessWarnings: warnings });
  } else {
    out(`Published ${name} ${version} to ${org}/${env} (${models.length} model${models.length === 1 ? "" : "s"}: ${models.join(", ")})`);
    if (run) out(`Run ${published.runId}: ${run.state}${run.error ? `: ${run.error}` : ""}`);
    // gates any caller can open (a given no attribute fills): published, and said where the modeler looks
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
    out("");
    out(`  Query   POST ${urls.query}`);
    out(`          body {"query": "run: <source> -> <view>"}`);
    if (urls.app) out(`  App     ${urls.app}`);
    out(`  MCP     ${urls.mcp}   (environment_name "${env}", package_name "${name}")`);
  }
  return run && run.state !== "succeeded" ? 1 : 0;
}
