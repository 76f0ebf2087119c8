/**
 * Structure of src/retrieval (issue 13): files grouped by stage in
 * sub-folders, no import cycle (type-only imports included, as madge counts
 * them), no two sub-folders importing each other, every file under 400 lines.
 */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
const RETRIEVAL = resolve(ROOT, "src", "retrieval");

/** Relative `.ts` imports of every file under `dir`, by absolute path. */
async function importGraph(dir: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for await (const f of new Glob("**/*.ts").scan(dir)) {
    const abs = resolve(dir, f);
    const text = await Bun.file(abs).text();
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+\.ts)"/g)].map((m) => resolve(dirname(abs), m[1]!));
    graph.set(abs, targets);
  }
  return graph;
}

/** Every cycle's files (strongly connected components with more than one file, or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.map((c) => relative(ROOT, c)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test("src/retrieval has no import cycle", async () => {
  expect(cycles(await importGraph(RETRIEVAL))).toEqual([]);
});

test("no two sub-folders of src/retrieval import each other", async () => {
  const graph = await importGraph(RETRIEVAL);
  const pairs = new Set<string>();
  for (const [file, targets] of graph) {
    const from = relative(RETRIEVAL, dirname(file));
    for (const t of targets) {
      if (!t.startsWith(RETRIEVAL)) continue;
      const to = relative(RETRIEVAL, dirname(t));
      if (from !== to) pairs.add(`${from || "."} -> ${to || "."}`);
    }
  }
  const mutual = [...pairs].filter((p) => pairs.has(p.split(" -> ").reverse().join(" -> "))).sort();
  expect(mutual).toEqual([]);
});

test("src/retrieval is split by stage, every file under 400 lines", async () => {
  const long: string[] = [];
  let top = 0;
  for await (const f of new Glob("**/*.ts").scan(RETRIEVAL)) {
    if (!f.includes("/")) top++;
    const lines = (await Bun.file(resolve(RETRIEVAL, f)).text()).split("\n").length;
    if (lines >= 400) long.push(`${f}: ${lines} lines`);
  }
  expect(long).toEqual([]);
  expect(top).toBeLessThanOrEqual(3);
});
