/**
 * A small pool of compile workers (`worker.ts`), so compiling a model
 * never holds the main thread's event loop: `/health` and every other request
 * keep answering while a big model compiles.
 *
 * The worker only translates. Each file it reads and each schema it needs is
 * answered here, on the main thread, by the package runtime's own URL reader
 * (files of the archive only) and connections (the package's sandboxed
 * DuckDB; environment connections behind the SQL guard and host policy).
 *
 * A compile that runs longer than its limit (`COMPILE_TIMEOUT_MS`) has its
 * worker terminated, which stops the CPU work, and fails with
 * {@link CompileTimeoutError}; a worker that crashes fails its job. Either
 * way the next job starts a fresh worker. Workers start on demand, up to
 * `COMPILE_WORKERS`, and never keep the process alive.
 * @module
 */
import { cpus } from "node:os";
import { MalloyError, Model, type ModelDef, type Runtime } from "@malloydata/malloy";
import type { CompileJob, HostReply, SerializedError, WorkerMessage, WorkerRequest } from "./protocol.ts";

/** The pool's settings; see {@link setCompileLimits}. */
export interface CompileLimits {
  /** Most compile workers (`COMPILE_WORKERS`). */
  workers: number;
  /** Longest one model's compile may take, ms (`COMPILE_TIMEOUT_MS`). */
  timeoutMs: number;
}

/** A compile stopped at its time limit (its worker was terminated). */
export class CompileTimeoutError extends Error {
  override name = "CompileTimeoutError";
  /** The limit that passed, ms. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`the model did not compile within ${timeoutMs} ms (COMPILE_TIMEOUT_MS)`);
    this.timeoutMs = timeoutMs;
  }
}

/** The describer of a model failed in the worker (a bug of ours, not a problem of the model). */
export class ModelDescribeError extends Error {
  override name = "ModelDescribeError";
}

/** A model compiled in a worker. */
export interface WorkerCompiled {
  /**
   * The model, rebuilt on the main thread from its definition's JSON when
   * first asked for (a publish that only needs the description never pays it).
   */
  model(): Model;
  /** Length of the model definition's JSON (measured in the worker). */
  bytes: number;
  /** What the job's describer answered, when it had one. */
  described?: unknown;
}

/** Options of {@link compileInWorker}. */
export interface CompileInWorkerOptions {
  /** Longest the compile may take, ms; default `COMPILE_TIMEOUT_MS`. */
  timeoutMs?: number;
  /**
   * Also describe the model in the worker: `module` exports `describeModel`
   * ({@link ModelDescriber}), `base` is the package's base URL (for `fileOf`).
   */
  describe?: { module: URL; base: URL };
  /**
   * Whose turn this compile counts toward (the callers use the environment):
   * a free worker takes, of the keys running the fewest compiles, the oldest
   * job of the key served longest ago, so keys take turns and one tenant's
   * burst of publishes does not queue the others behind all of it.
   */
  key?: string;
}

interface Job {
  key: string;
  url: URL;
  runtime: Runtime;
  timeoutMs: number;
  describe?: { module: string; base: string };
  resolve: (value: WorkerCompiled) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  /** Connections the running job looked up, by the name the model used. */
  connections: Map<string | undefined, Promise<unknown>>;
  timer?: ReturnType<typeof setTimeout>;
  dead: boolean;
}

/** Default number of workers: two, or one on a single-core machine. */
function defaultCompileWorkers(): number {
  return Math.max(1, Math.min(2, cpus().length));
}

let limits: CompileLimits = { workers: defaultCompileWorkers(), timeoutMs: 30_000 };
const slots: Slot[] = [];
const queue: Job[] = [];
let started = 0;
let stopped = 0;

/** Sets the pool size and the default time limit (at service start, from the config). */
export function setCompileLimits(next: Partial<CompileLimits>): void {
  limits = {
    workers: Math.max(1, Math.floor(next.workers ?? limits.workers)),
    timeoutMs: Math.max(1, Math.floor(next.timeoutMs ?? limits.timeoutMs)),
  };
  dispatch();
}

/** The pool's current settings. */
export function compileLimits(): CompileLimits {
  return { ...limits };
}

/** Counts of the pool (for tests and benchmarks). */
export interface CompileWorkerStats {
  /** Workers in the pool, busy or idle. */
  running: number;
  /** Workers compiling now. */
  busy: number;
  /** Compiles waiting for a worker. */
  queued: number;
  /** Workers ever started. */
  started: number;
  /** Workers whose thread has ended (terminated at a time limit, crashed or closed). */
  stopped: number;
}

/** The pool's counts now. */
export function compileWorkerStats(): CompileWorkerStats {
  return { running: slots.length, busy: slots.filter((s) => s.job).length, queued: queue.length, started, stopped };
}

/**
 * Compiles the model at `url` in a worker, reading files and schemas through
 * `runtime` (its `urlReader` and `connections`) on this thread. Resolves with
 * the same `Model` `runtime.loadModel(url).getModel()` answers; rejects with
 * the `MalloyError` (and its problems) Malloy threw, or with
 * {@link CompileTimeoutError} after `timeoutMs` (default `COMPILE_TIMEOUT_MS`).
 */
export function compileInWorker(runtime: Runtime, url: URL, options: CompileInWorkerOptions = {}): Promise<WorkerCompiled> {
  const describe = options.describe ? { module: options.describe.module.href, base: options.describe.base.href } : undefined;
  return new Promise<WorkerCompiled>((resolve, reject) => {
    queue.push({ key: options.key ?? "", url, runtime, timeoutMs: options.timeoutMs ?? limits.timeoutMs, describe, resolve, reject });
    dispatch();
  });
}

/**
 * Starts one worker now if none runs, so the first compile does not wait for
 * a worker to load Malloy (the server calls this once it listens).
 */
export function warmCompileWorkers(): void {
  if (slots.length === 0) spawn();
}

/** Terminates every worker (idle ones at once; running jobs fail). For shutdown and tests. */
export async function closeCompileWorkers(): Promise<void> {
  for (const job of queue.splice(0)) job.reject(new Error("the compile workers were closed"));
  await Promise.all([...slots].map((slot) => retire(slot, new Error("the compile workers were closed"))));
}

function dispatch(): void {
  while (queue.length > 0) {
    let slot = slots.find((s) => !s.job && !s.dead);
    if (!slot) {
      if (slots.length >= limits.workers) return;
      slot = spawn();
    }
    run(slot, takeNext());
  }
  // Shrink to the limit once idle workers are over it.
  for (const slot of slots.filter((s) => !s.job)) {
    if (slots.length <= limits.workers) break;
    void retire(slot);
  }
}

/** When each key last had a compile started (a sequence number), for turns between keys. */
const lastStarted = new Map<string, number>();
let starts = 0;

/**
 * Removes and answers the queued job to run next: of the keys running the
 * fewest compiles, the one whose last compile started longest ago (turns),
 * its oldest job.
 */
function takeNext(): Job {
  const running = new Map<string, number>();
  for (const slot of slots) if (slot.job) running.set(slot.job.key, (running.get(slot.job.key) ?? 0) + 1);
  const rank = (job: Job): [number, number] => [running.get(job.key) ?? 0, lastStarted.get(job.key) ?? -1];
  let best = 0;
  for (let i = 1; i < queue.length; i++) {
    const [count, last] = rank(queue[i]!);
    const [bestCount, bestLast] = rank(queue[best]!);
    if (count < bestCount || (count === bestCount && last < bestLast)) best = i;
  }
  const [job] = queue.splice(best, 1);
  if (lastStarted.size > 10_000) lastStarted.clear();
  lastStarted.set(job!.key, ++starts);
  return job!;
}

function spawn(): Slot {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { name: "malloy-compile", ref: false });
  (worker as Worker & { unref(): void }).unref(); // Bun's Worker; the DOM type lacks it
  started++;
  const slot: Slot = { worker, connections: new Map(), dead: false };
  worker.addEventListener("message", (event: MessageEvent<WorkerMessage>) => onMessage(slot, event.data));
  worker.addEventListener("error", (event: ErrorEvent) => {
    void retire(slot, new Error(`the compile worker failed: ${event.message || "unknown error"}`));
  });
  worker.addEventListener("close", () => {
    stopped++;
    void retire(slot, new Error("the compile worker stopped"));
  });
  slots.push(slot);
  return slot;
}

function run(slot: Slot, job: Job): void {
  slot.job = job;
  slot.connections = new Map();
  slot.timer = setTimeout(() => void retire(slot, new CompileTimeoutError(job.timeoutMs)), job.timeoutMs);
  slot.worker.postMessage({ kind: "compile", url: job.url.href, ...(job.describe ? { describe: job.describe } : {}) } satisfies CompileJob);
}

/** Ends a slot's job (if any) and frees the slot for the next one. */
function finish(slot: Slot): Job | undefined {
  const job = slot.job;
  clearTimeout(slot.timer);
  slot.job = undefined;
  slot.timer = undefined;
  slot.connections = new Map();
  return job;
}

/** Terminates a worker; its job (if any) fails with `error`. */
async function retire(slot: Slot, error?: Error): Promise<void> {
  if (slot.dead) return;
  slot.dead = true;
  const index = slots.indexOf(slot);
  if (index >= 0) slots.splice(index, 1);
  const job = finish(slot);
  if (job && error) job.reject(error);
  slot.worker.terminate();
  dispatch();
}

function onMessage(slot: Slot, message: WorkerMessage): void {
  if (slot.dead || !slot.job) return;
  if (message.kind === "done" || message.kind === "failed") {
    const job = finish(slot)!;
    if (message.kind === "done" && message.describeError) {
      job.reject(new ModelDescribeError(`describing the compiled model failed: ${message.describeError.message}`));
    } else if (message.kind === "done") {
      job.resolve(compiledFrom(message));
    } else {
      job.reject(deserialize(message.error));
    }
    dispatch();
    return;
  }
  const job = slot.job;
  void answer(slot, job, message).then(
    (value) => reply(slot, job, { kind: "reply", id: message.id, value }),
    (error) => reply(slot, job, { kind: "reply", id: message.id, error: serialize(error) }),
  );
}

/** A job's answer, its model parsed on first use (then the JSON text is let go). */
function compiledFrom(done: Extract<WorkerMessage, { kind: "done" }>): WorkerCompiled {
  const { problems, fromSources, described } = done;
  let text: string | undefined = done.modelDef;
  let model: Model | undefined;
  return {
    model() {
      if (!model) {
        model = new Model(JSON.parse(text!) as ModelDef, problems, fromSources);
        text = undefined;
      }
      return model;
    },
    bytes: done.modelDef.length,
    ...(described !== undefined ? { described: JSON.parse(described) as unknown } : {}),
  };
}

/** Answers a worker's request with the job's own runtime: its reader and its guarded connections. */
async function answer(slot: Slot, job: Job, request: WorkerRequest): Promise<unknown> {
  switch (request.kind) {
    case "read": {
      const read = await job.runtime.urlReader.readURL(new URL(request.url));
      return typeof read === "string" ? read : read.contents;
    }
    case "connection": {
      const connection = await connectionOf(slot, job, request.name);
      return { name: connection.name, dialectName: connection.dialectName };
    }
    case "tables": {
      const connection = await connectionOf(slot, job, request.connection);
      return await connection.fetchSchemaForTables(request.tables, request.options as never);
    }
    case "sql": {
      const connection = await connectionOf(slot, job, request.connection);
      return await connection.fetchSchemaForSQLStruct(request.request as never, request.options as never);
    }
  }
}

type RuntimeConnection = Awaited<ReturnType<Runtime["connections"]["lookupConnection"]>>;

function connectionOf(slot: Slot, job: Job, name: string | undefined): Promise<RuntimeConnection> {
  let found = slot.connections.get(name) as Promise<RuntimeConnection> | undefined;
  if (!found) {
    found = job.runtime.connections.lookupConnection(name);
    slot.connections.set(name, found);
  }
  return found;
}

function reply(slot: Slot, job: Job, message: HostReply): void {
  // A reply for a job that already ended (timed out) goes nowhere.
  if (slot.dead || slot.job !== job) return;
  slot.worker.postMessage(message);
}

function serialize(error: unknown): SerializedError {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

function deserialize(error: SerializedError): Error {
  const rebuilt = error.problems ? new MalloyError(error.message, error.problems) : new Error(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}
