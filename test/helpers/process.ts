/**
 * Service processes for the process tests: `bun src/main.ts` children on free
 * loopback ports, their output collected as it comes (a full pipe would block
 * them), and a registry so a test file kills every child it started even when
 * a test fails (`afterAll(stopAll)`).
 * @module
 */
import { join } from "node:path";

/** The project's root folder. */
export const ROOT = join(import.meta.dir, "..", "..");

/** A started `bun src/main.ts`. */
export interface MainProcess {
  proc: ReturnType<typeof Bun.spawn>;
  port: number;
  /** Base URL, `http://127.0.0.1:<port>`. */
  base: string;
  /** Everything it printed (stdout, then stderr), once both streams ended. */
  output: () => Promise<string>;
  /** What it printed so far (both streams, interleaved), for failure messages. */
  printed: () => string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves to the exit code. */
  stop: (graceMs?: number) => Promise<number | null>;
}

const running = new Set<MainProcess>();

/** A free TCP port on 127.0.0.1 (probed, then released). */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function collect(stream: ReadableStream<Uint8Array>, into: string[]): Promise<string> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) into.push(decoder.decode(chunk, { stream: true }));
  return into.join("");
}

/** Starts `bun src/main.ts` with `env` over this process's environment, on a free port. */
export function startMain(env: Record<string, string>): MainProcess {
  const port = freePort();
  const proc = Bun.spawn(["bun", "src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const outText: string[] = [];
  const errText: string[] = [];
  const out = collect(proc.stdout as ReadableStream<Uint8Array>, outText);
  const err = collect(proc.stderr as ReadableStream<Uint8Array>, errText);
  const child: MainProcess = {
    proc,
    port,
    base: `http://127.0.0.1:${port}`,
    output: async () => (await out) + (await err),
    printed: () => outText.join("") + errText.join(""),
    async stop(graceMs = 15_000) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
      try {
        return await proc.exited;
      } finally {
        clearTimeout(timer);
        running.delete(child);
      }
    },
  };
  running.add(child);
  void proc.exited.then(() => running.delete(child));
  return child;
}

/** Stops every child still running (for `afterAll`, so a failed test leaves none behind). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop(5_000)));
}

/**
 * Waits until `GET /health` answers 200 on `port` (or on a started child, whose
 * output the error then quotes, also when it exited); returns the ms it took.
 */
export async function waitHealthy(target: number | MainProcess, timeoutMs = 30_000): Promise<number> {
  const port = typeof target === "number" ? target : target.port;
  const child = typeof target === "number" ? undefined : target;
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    if (child && child.proc.exitCode !== null) {
      throw new Error(`service on ${port} exited with ${child.proc.exitCode}:\n${child.printed().slice(-4000)}`);
    }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.status === 200) return performance.now() - start;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`service on ${port} not healthy after ${timeoutMs} ms${child ? `:\n${child.printed().slice(-4000)}` : ""}`);
}
