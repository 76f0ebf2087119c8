/**
 * Runs every benchmark of test/bench one after another and prints their figures.
 * Run: `bun run bench` (or a single one: `bun test/bench/<name>.ts`).
 */
import { join } from "node:path";

const dir = import.meta.dir;
const only = process.argv.slice(2);
const files = (await Array.fromAsync(new Bun.Glob("*.ts").scan(dir)))
  .filter((f) => f !== "run.ts" && !f.endsWith("_questions.ts") && !f.endsWith("_packages.ts") && !f.startsWith("lib_"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const proc = Bun.spawn(["bun", join(dir, file)], { stdout: "inherit", stderr: "inherit", env: process.env });
  if ((await proc.exited) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
