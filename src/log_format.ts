/**
 * The service's log as it reaches the terminal: readable lines when standard
 * output is a terminal, one JSON object per line when it is not (files,
 * pipes, log collectors) or with `LOG_FORMAT=json` (`LOG_FORMAT=text` forces
 * lines). The same records either way; the text form leaves out the model
 * cache's per-query `warm` hits.
 * @module
 */

/** How the log is written. */
export type LogFormat = "text" | "json";

/** The format for `LOG_FORMAT` and whether standard output is a terminal; throws on a value it does not know. */
export function logFormatOf(value: string | undefined, isTty: boolean): LogFormat {
  if (value === undefined || value === "") return isTty ? "text" : "json";
  if (value === "json" || value === "text") return value;
  throw new Error(`LOG_FORMAT '${value}' is not known: use json (one JSON object per line) or text (readable lines); unset, it is text on a terminal and json otherwise`);
}

const COLORS = { dim: "2", red: "31", green: "32", yellow: "33", cyan: "36", bold: "1" } as const;

function painter(enabled: boolean) {
  return (color: keyof typeof COLORS, text: string) => (enabled ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text);
}

function short(id: unknown): string {
  return typeof id === "string" ? id.slice(0, 8) : String(id);
}

function rest(line: Record<string, unknown>, used: readonly string[]): string {
  const skip = new Set(["time", "level", "event", "message", ...used]);
  return Object.entries(line)
    .filter(([k, v]) => !skip.has(k) && v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}

/** One log record as a readable line (or lines), `null` for what the text form leaves out. */
function textOf(line: Record<string, unknown>, paint: ReturnType<typeof painter>): string | null {
  const level = String(line.level ?? "info");
  const prefix = level === "error" ? paint("red", "error ") : level === "warn" ? paint("yellow", "warn  ") : "";
  const pkg = `${line.package ?? ""}${line.version ?? line.versionId ? ` ${line.version ?? line.versionId}` : ""}`;
  if (typeof line.method === "string" && typeof line.status === "number") {
    const status = line.status >= 500 ? paint("red", String(line.status)) : line.status >= 400 ? paint("yellow", String(line.status)) : paint("green", String(line.status));
    const who = line.principal ? paint("dim", `  ${line.principal}`) : "";
    return `${paint("dim", `${line.method}`)} ${line.route} ${status} ${paint("dim", `${line.ms} ms`)}${who}`;
  }
  switch (line.event) {
    case "model_cache":
      return line.phase === "warm" ? null : `loaded model ${line.modelPath} ${paint("dim", `(${line.ms} ms)`)}`;
    case "published":
      return `${paint("cyan", "published")} ${pkg}${line.source === "watch" ? " from the watched folder" : line.source ? ` (${line.source})` : ""}`;
    case "compile_error": {
      const problems = Array.isArray(line.problems) ? line.problems as Array<{ file?: string; line?: number; column?: number; message?: string }> : [];
      const lines = [...new Set(problems.map((p) => `${p.file ?? ""}${p.line ? `:${p.line}` : ""}${p.column ? `:${p.column}` : ""}  ${p.message ?? ""}`))];
      const shown = lines.slice(0, 8).map((l) => `\n    ${l}`).join("");
      const more = lines.length > 8 ? `\n    ... and ${lines.length - 8} more` : "";
      // the message repeats the problems; its first line says what happened
      const head = String(line.message ?? "").split("\n")[0];
      return `${paint("red", "compile error")} in ${line.package}: ${problems.length > 0 ? head : line.message}${shown}${more}`;
    }
    case "version_indexed":
      return `indexed for search ${paint("dim", `(${line.entities} fields and sources, ${line.valueDimensions ?? 0} with values, ${line.model})`)}`;
    case "compile_ok":
      return `${paint("green", "compiles again")} ${pkg}`;
    case "archived":
      return `archived ${pkg}`;
    case "run_started":
      return `run ${short(line.runId)} started ${pkg}`;
    case "run_finished": {
      const state = String(line.state);
      const painted = state === "succeeded" ? paint("green", state) : paint("red", state);
      return `run ${short(line.runId)} ${painted} ${pkg}${line.ms !== undefined ? paint("dim", ` (${(Number(line.ms) / 1000).toFixed(1)} s)`) : ""}`;
    }
  }
  const head = typeof line.message === "string" ? line.message : String(line.event ?? "");
  const extra = rest(line, []);
  return `${prefix}${head}${extra ? ` ${paint("dim", extra)}` : ""}`;
}

/** A log sink writing `format` to `write` (default: standard output). */
export function createLog(format: LogFormat, options: { color?: boolean; write?: (text: string) => void } = {}): (line: Record<string, unknown>) => void {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  if (format === "json") return (line) => write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
  const paint = painter(options.color ?? false);
  return (line) => {
    const text = textOf(line, paint);
    if (text === null) return;
    const time = new Date().toTimeString().slice(0, 8);
    write(`${paint("dim", time)} ${text}\n`);
  };
}

/** The lines printed at start: where to go next (console, docs, MCP, CLI). */
export function startBanner(base: string, options: { database: string; color?: boolean }): string {
  const paint = painter(options.color ?? false);
  return [
    "",
    `  ${paint("bold", "Malloy data-modeling platform")} is running ${paint("dim", `(${options.database})`)}`,
    "",
    `  Console   ${paint("cyan", `${base}/`)}`,
    `  API docs  ${paint("cyan", `${base}/api/v0/docs`)}`,
    `  MCP       ${paint("cyan", `${base}/mcp/<organization>`)}`,
    `  CLI       bun src/cli/main.ts login --server ${base}   ${paint("dim", "(then: publish DIR)")}`,
    "",
  ].join("\n");
}
