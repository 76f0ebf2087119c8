/**
 * A compile worker: runs Malloy's translator on one model at a time, off the
 * main thread's event loop. It has no files and no connections of its own:
 * its URL reader and connections forward each call to the main thread
 * ({@link WorkerRequest}), where the package's reader (archive files only)
 * and its guarded connections answer. It answers the compiled `ModelDef` (as
 * JSON text) with the model's warnings and source URLs, or the error Malloy
 * threw with its problems. When the job names a describer module, the
 * worker also runs it on the model and answers its plain data (a publish's
 * metadata and access rules), so the main thread never walks the model.
 * Started by `pool.ts`.
 * @module
 */
/// <reference lib="webworker" />
import { getPriority, setPriority } from "node:os";
import {
  type Connection,
  type LookupConnection,
  MalloyError,
  type Model,
  Runtime,
  type URLReader,
} from "@malloydata/malloy";
import type { CompileJob, HostReply, JobResult, ModelDescriber, SerializedError, WorkerRequest } from "./protocol.ts";
import { packageFileOf } from "./package_url.ts";

declare const self: DedicatedWorkerGlobalScope;

/**
 * The nice value of a compile worker's thread. On a host with few cores the
 * translator's CPU work competes with the main thread, which answers every
 * request: at a lower priority the worker yields the CPU to it. Linux only,
 * where a priority set with pid 0 is the calling thread's (elsewhere it would
 * be the whole process's).
 */
const WORKER_NICE = 10;

if (process.platform === "linux") {
  try {
    if (getPriority() < WORKER_NICE) setPriority(WORKER_NICE);
  } catch {
    // a system that refuses it leaves the worker at the process's priority
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Request = WorkerRequest extends infer R ? R extends { id: number } ? Omit<R, "id"> : never : never;

const pending = new Map<number, Pending>();
let nextId = 1;

/** Asks the main thread; resolves with its reply. */
function ask<T>(request: Request): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    self.postMessage({ ...request, id } as WorkerRequest);
  });
}

function toError(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  return error;
}

function serialize(error: unknown): SerializedError {
  if (error instanceof MalloyError) return { name: error.name, message: error.message, problems: error.problems };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

/** What the main thread says about a connection: enough for the translator. */
interface ConnectionInfo {
  name: string;
  dialectName: string;
}

/**
 * A connection whose schema lookups run on the main thread. The translator
 * needs only its name, dialect and schemas; running SQL is not a compile's
 * business and is refused.
 */
function forwardedConnection(lookupName: string | undefined, info: ConnectionInfo): Connection {
  const refuse = () => Promise.reject(new Error("a compile worker does not run SQL"));
  const connection = {
    name: info.name,
    dialectName: info.dialectName,
    getDigest: () => `compile-worker:${info.name}`,
    fetchSchemaForTables: (tables: Record<string, string>, options: unknown) =>
      ask({ kind: "tables", connection: lookupName, tables, options }),
    fetchSchemaForSQLStruct: (request: unknown, options: unknown) =>
      ask({ kind: "sql", connection: lookupName, request, options }),
    runSQL: refuse,
    estimateQueryCost: refuse,
    fetchMetadata: () => Promise.resolve({}),
    fetchTableMetadata: () => Promise.resolve({}),
    isPool: () => false,
    canPersist: () => false,
    canStream: () => false,
    close: () => Promise.resolve(),
    idle: () => Promise.resolve(),
  };
  return connection as unknown as Connection;
}

async function compile(job: CompileJob): Promise<JobResult> {
  // Per job: a connection is looked up once on the main thread, then reused.
  const known = new Map<string | undefined, Promise<Connection>>();
  const connections: LookupConnection<Connection> = {
    lookupConnection(name?: string) {
      let found = known.get(name);
      if (!found) {
        found = ask<ConnectionInfo>({ kind: "connection", name }).then((info) => forwardedConnection(name, info));
        known.set(name, found);
      }
      return found;
    },
  };
  const urlReader: URLReader = { readURL: (url: URL) => ask<string>({ kind: "read", url: url.href }) };
  let model: Model;
  try {
    model = await new Runtime({ urlReader, connections }).loadModel(new URL(job.url)).getModel();
  } catch (error) {
    return { kind: "failed", error: serialize(error) };
  }
  const done: JobResult = { kind: "done", modelDef: JSON.stringify(model._modelDef), problems: model.problems, fromSources: model.fromSources };
  if (job.describe) {
    try {
      done.described = JSON.stringify(await describe(job.url, job.describe, model));
    } catch (error) {
      done.describeError = serialize(error);
    }
  }
  return done;
}

/** Runs the job's describer module on the compiled model (the module is loaded once per worker). */
async function describe(url: string, by: { module: string; base: string }, model: Model): Promise<unknown> {
  const base = new URL(by.base);
  const fileOf = (href: string) => packageFileOf(href, base);
  const describer = (await import(by.module)) as ModelDescriber;
  return describer.describeModel({ path: fileOf(url), model, fileOf });
}

self.onmessage = (event: MessageEvent<CompileJob | HostReply>) => {
  const message = event.data;
  if (message.kind === "reply") {
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (!waiting) return;
    if ("error" in message) waiting.reject(toError(message.error));
    else waiting.resolve(message.value);
    return;
  }
  void compile(message).then((result) => self.postMessage(result));
};
