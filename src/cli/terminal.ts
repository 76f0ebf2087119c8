/**
 * What the CLI writes: progress bars on a terminal (standard error, one line
 * redrawn in place), nothing of them otherwise; tables and plain lines for
 * people; JSON for scripts.
 * @module
 */

/** Whether standard error is a terminal (progress bars are drawn there). */
function stderrIsTty(): boolean {
  return Boolean(process.stderr.isTTY) && process.env.TERM !== "dumb";
}

/** A progress bar of `done` out of `total`: `label [#####-----]  50%  detail`. */
export function bar(label: string, done: number, total: number, detail = ""): string {
  const width = 28;
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  const percent = `${Math.round(ratio * 100)}%`.padStart(4);
  return `${label.padEnd(8)} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${percent}${detail ? `  ${detail}` : ""}`;
}

/** A line redrawn in place on a terminal; `done` ends it with a newline. */
export interface StatusLine {
  update(text: string): void;
  done(text?: string): void;
}

/** A status line on standard error (a no-op when it is not a terminal). */
export function statusLine(): StatusLine {
  const tty = stderrIsTty();
  let last = "";
  return {
    update(text) {
      if (!tty || text === last) return;
      last = text;
      process.stderr.write(`\r\x1b[2K${text}`);
    },
    done(text) {
      if (!tty) return;
      process.stderr.write(`\r\x1b[2K${text ?? last}\n`);
      last = "";
    },
  };
}

/** Bytes as B, KB or MB. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  // floating-point noise (221761.72999999882) is not a digit anyone wants to read
  if (typeof value === "number" && !Number.isInteger(value)) return String(Number(value.toPrecision(12)));
  return String(value);
}

/** Rows as an aligned text table (columns cut at 40 characters). */
export function table(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const names: readonly string[] = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (names.length === 0) return "(no columns)";
  const cut = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s);
  const cells = rows.map((r) => names.map((n) => cut(cellText(r[n]).replace(/\s+/g, " "))));
  const numeric = names.map((n) => rows.length > 0 && rows.every((r) => r[n] === null || r[n] === undefined || typeof r[n] === "number"));
  const widths = names.map((n, i) => Math.max(n.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: readonly string[]) => values.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ").trimEnd();
  return [line(names), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}

/** Writes a line to standard output. */
export function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Writes a value as JSON to standard output. */
export function outJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
