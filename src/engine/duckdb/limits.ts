/**
 * The per-query limits of this process's DuckDB sessions ({@link EngineLimits}):
 * their defaults, the setter the query runner calls at start-up, and the
 * overrides one package connection may ask for (`threads`, `memoryLimit`,
 * `tempDirectory` of its opener).
 * @module
 */

import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import type { EngineLimits } from "./session.ts";
import { trimIdle } from "./idle.ts";

const GIB = 1024 ** 3;

/** The default memory limit per query: 1 GiB, at most a quarter of the host's memory. */
function defaultMemoryLimit(): number {
  return Math.min(GIB, Math.floor(totalmem() / 4));
}

let limits: EngineLimits = {
  memoryLimitBytes: defaultMemoryLimit(),
  threads: Math.max(1, Math.floor(cpus().length / 2)),
  spillLimitBytes: 4 * GIB,
  tempRoot: join(tmpdir(), "malloy-duckdb"),
  statementTimeoutMs: 30_000,
  idleSessions: 2,
  idleInstancesTotal: 16,
  schemaIdleMs: 60_000,
};

/**
 * Sets the per-query limits of this process's DuckDB sessions. The memory
 * limit is capped at a quarter of the host's memory.
 */
export function setEngineLimits(next: Partial<EngineLimits>): EngineLimits {
  const merged = { ...limits, ...Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) };
  merged.memoryLimitBytes = Math.max(16 * 1024 * 1024, Math.min(merged.memoryLimitBytes, Math.floor(totalmem() / 4)));
  merged.threads = Math.max(1, Math.floor(merged.threads));
  merged.idleSessions = Math.max(0, Math.floor(merged.idleSessions));
  merged.idleInstancesTotal = Math.max(0, Math.floor(merged.idleInstancesTotal));
  merged.schemaIdleMs = Math.max(0, Math.floor(merged.schemaIdleMs));
  limits = merged;
  trimIdle(limits.idleInstancesTotal);
  return limits;
}

/** The current per-query limits. */
export function engineLimits(): EngineLimits {
  return { ...limits };
}

/** What a package connection's opener may set instead of the process limits. */
export interface LimitOverrides {
  /** DuckDB worker threads per query. */
  threads?: number;
  /** Memory per query, bytes or a DuckDB size such as `"1GB"`. */
  memoryLimit?: string | number;
  /** Folder for spill folders; default `<os tmp>/malloy-duckdb`. */
  tempDirectory?: string;
}

/** The limits a connection's options replace (only those the options set). */
export function limitOverrides(options: LimitOverrides): Partial<EngineLimits> {
  return {
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.memoryLimit === undefined ? {} : { memoryLimitBytes: parseSize(options.memoryLimit) }),
    ...(options.tempDirectory === undefined ? {} : { tempRoot: resolve(options.tempDirectory) }),
  };
}

/** Bytes of a size given as a number of bytes or a DuckDB size (`512MB`, `1GiB`). */
function parseSize(size: string | number): number {
  if (typeof size === "number") return size;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B?)?\s*$/i.exec(size);
  if (!match) throw new Error(`'${size}' is not a size; write bytes or e.g. 512MB, 1GiB`);
  const unit = (match[2] ?? "").toUpperCase().replace(/I?B$/, "");
  const power = ["", "K", "M", "G", "T"].indexOf(unit);
  const base = /I/i.test(match[2] ?? "") || !/B/i.test(match[2] ?? "") ? 1024 : 1000;
  return Math.floor(Number(match[1]) * base ** Math.max(0, power));
}
