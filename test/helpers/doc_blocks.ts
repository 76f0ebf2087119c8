/**
 * The code blocks of the README and docs/, and a shell to run them in: the
 * documentation's examples are tests (test/docs/examples.test.ts,
 * test/data/first_hour.test.ts).
 * @module
 */

/** The bodies of the fenced blocks of `markdown` tagged `lang` (```sh, ```bash, ```ts), in order. */
export function codeBlocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, "gm"))].map((m) => m[1]!);
}

/** Runs `script` with `bash -euo pipefail`; `out` is stdout then stderr. */
export async function bash(script: string, options: { cwd: string; env: Record<string, string> }): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(["bash", "-euo", "pipefail", "-c", script], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out: out + err };
}
