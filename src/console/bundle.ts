/**
 * The console's browser files: `web/main.ts` bundled by Bun (no other
 * toolchain), once per process, on first need, in the background; kept in
 * memory with a gzip copy and an ETag. `web/console.css` and `web/favicon.svg`
 * are served as they are.
 * @module
 */
import { join } from "node:path";

/** A built file of the console. */
export interface ConsoleAsset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
}

const WEB_DIR = join(import.meta.dir, "web");

let pending: Promise<Map<string, ConsoleAsset>> | undefined;

async function asset(body: Uint8Array<ArrayBuffer>, type: string): Promise<ConsoleAsset> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  const etag = `"${[...digest.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
  return { body, gzip: Bun.gzipSync(body) as Uint8Array<ArrayBuffer>, type, etag };
}

async function build(): Promise<Map<string, ConsoleAsset>> {
  const result = await Bun.build({ entrypoints: [join(WEB_DIR, "main.ts")], target: "browser", minify: true, format: "esm" });
  if (!result.success) throw new Error(`the console's bundle did not build: ${result.logs.map((l) => l.message).join("; ")}`);
  const [script] = result.outputs.filter((o) => o.kind === "entry-point");
  if (!script) throw new Error("the console's bundle did not build: no entry point in the output");
  const files = new Map<string, ConsoleAsset>();
  files.set("app.js", await asset(new Uint8Array(await script.arrayBuffer()), "text/javascript; charset=utf-8"));
  files.set("console.css", await asset(new Uint8Array(await Bun.file(join(WEB_DIR, "console.css")).arrayBuffer()), "text/css; charset=utf-8"));
  files.set("favicon.svg", await asset(new Uint8Array(await Bun.file(join(WEB_DIR, "favicon.svg")).arrayBuffer()), "image/svg+xml"));
  return files;
}

/** Starts building the console's files unless started already (a failed build is retried on the next call). */
export function consoleAssets(): Promise<Map<string, ConsoleAsset>> {
  if (!pending) {
    pending = build();
    pending.catch(() => {
      pending = undefined;
    });
  }
  return pending;
}
