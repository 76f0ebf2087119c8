/**
 * The documentation's examples run: the README's tour, then every ```sh block
 * of each page of docs/ (in one shell per page, with the tour's BASE, TOKEN and
 * KEY) against the service served on a loopback port, and the TypeScript MCP
 * client of docs/mcp.md. ```bash blocks are host commands (starting the
 * service, backups, test commands): every script and file they name exists
 * (the backup block runs in ./backup.test.ts, the recovery block in
 * test/data/first_hour.test.ts). ```json blocks parse.
 * Every variable the service reads is in docs/configuration.md exactly once.
 * @module
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { ADMIN_PASSWORD, startTestService, type TestService } from "../helpers/service.ts";
import { bash, codeBlocks } from "../helpers/doc_blocks.ts";

setDefaultTimeout(300_000);

const ROOT = resolve(import.meta.dir, "..", "..");

/** The pages whose examples run here, in this order, and what their output must show. */
const PAGES: Record<string, { shows: string[]; errors?: string[] }> = {
  "docs/mcp.md": {
    shows: ['"name":"get_context"', '"source_name":"orders"', '"name":"state"', '"sales_channel":"store"', '"name":"analysts"', '"secret":'],
  },
  "docs/row-level-security.md": {
    shows: ['"data":[{"region":"EU","revenue":30}]', '"data":[{"region":"US","revenue":45}]', '"data":[{"total_salary":300}]', "attribute 'region' has no value for user:admin", "user:ann is in none of them"],
    // ann and the sales_eu key are refused payroll, the administrator both queries
    errors: ["INSUFFICIENT_PERMISSIONS"],
  },
  "docs/apps.md": {
    shows: ['<meta name="app-token"', '<meta name="app-api"', '"product_category":"Outdoor"', "event: ready"],
    errors: ["INSUFFICIENT_PERMISSIONS"],
  },
  "docs/runs.md": {
    shows: ['"dimensions":["orders.state"]', '"dimension":"state"', '"sourceName":"daily"', '"status":"built"', '"day_count":2,"total_amount":22', '"materialization":{'],
  },
  "docs/operations.md": { shows: ['"name":"warehouse","type":"duckdb"'] },
  "docs/rest-api.md": {
    shows: ['rel="next"', '"sources":["orders"]', '"via":"rest"', '"name":"sales"', '"environmentName":"prod","packageName":"shop"', "row-level-security.md"],
  },
};

let s: TestService;
let served: Served;
let work: string;
let tour: { BASE: string; TOKEN: string; KEY: string };
/** The files of the work folder (a copy of the checkout's demo/) before and after the tour. */
let filesBefore: string[];
let filesAfter: string[];

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

beforeAll(async () => {
  s = await startTestService();
  served = serveOnLoopback(s.service.handle);
  work = await mkdtemp(join(tmpdir(), "docs-examples-"));
  await cp(join(ROOT, "demo"), join(work, "demo"), { recursive: true });
  // the tour, as the README writes it; its variables are printed for the pages
  const readme = codeBlocks(await readFile(join(ROOT, "README.md"), "utf8"), "sh");
  filesBefore = await filesUnder(work);
  const ran = await bash(`${readme.join("\n")}\necho "TOKEN=$TOKEN"; echo "KEY=$KEY"`, { cwd: work, env: { BASE: served.url, ADMIN_PASSWORD } });
  if (ran.code !== 0) throw new Error(`the README's tour failed:\n${ran.out}`);
  filesAfter = await filesUnder(work);
  tour = { BASE: served.url, TOKEN: /^TOKEN=(.+)$/m.exec(ran.out)![1]!, KEY: /^KEY=(.+)$/m.exec(ran.out)![1]! };
}, 300_000);
afterAll(async () => {
  served?.stop();
  await s?.close();
  if (work) await rm(work, { recursive: true, force: true });
}, 120_000);

describe("the examples of each page run against the service", () => {
  for (const [page, expected] of Object.entries(PAGES)) {
    test(page, async () => {
      const blocks = codeBlocks(await readFile(join(ROOT, page), "utf8"), "sh");
      expect(blocks.length).toBeGreaterThan(0);
      const ran = await bash(blocks.join("\n"), { cwd: work, env: tour });
      // on failure, show what the blocks printed
      expect({ code: ran.code, out: ran.code === 0 ? "" : ran.out }).toEqual({ code: 0, out: "" });
      for (const text of expected.shows) expect(ran.out).toContain(text);
      const codes = [...ran.out.matchAll(/"code":"([A-Z_]+)"/g)].map((m) => m[1]!);
      for (const code of codes) expect(expected.errors ?? []).toContain(code);
    });
  }

  test("every page of docs/ with ```sh blocks is run here", async () => {
    const pages = (await readdir(join(ROOT, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
    for (const page of pages) {
      if (codeBlocks(await readFile(join(ROOT, page), "utf8"), "sh").length > 0) expect(Object.keys(PAGES)).toContain(page);
    }
  });

  test("the TypeScript MCP client of docs/mcp.md runs as written", async () => {
    const [code] = codeBlocks(await readFile(join(ROOT, "docs/mcp.md"), "utf8"), "ts");
    expect(code).toContain("@modelcontextprotocol/sdk");
    const dir = await mkdtemp(join(tmpdir(), "docs-sdk-"));
    try {
      await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
      await writeFile(join(dir, "client.ts"), code!);
      const ran = await bash("bun client.ts", { cwd: dir, env: tour });
      expect({ code: ran.code, out: ran.code === 0 ? "" : ran.out }).toEqual({ code: 0, out: "" });
      const result = JSON.parse(ran.out.trim()) as { data: { product_category: string }[]; totalRows: number };
      expect(result.totalRows).toBe(5);
      expect(result.data.map((r) => r.product_category)).toContain("Books");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("host commands and settings", () => {
  test("every ```bash block names scripts and files that exist", async () => {
    const scripts = Object.keys(((await Bun.file(join(ROOT, "package.json")).json()) as { scripts: Record<string, string> }).scripts);
    const pages = ["README.md", ...(await readdir(join(ROOT, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    let commands = 0;
    for (const page of pages) {
      for (const block of codeBlocks(await readFile(join(ROOT, page), "utf8"), "bash")) {
        for (const m of block.matchAll(/\bbun (?:run ([a-z-]+)|(start)\b)/g)) {
          commands++;
          const script = m[1] ?? m[2]!;
          expect({ page, script, known: scripts.includes(script) }).toEqual({ page, script, known: true });
        }
        for (const m of block.matchAll(/\b(?:bun(?: test)?|bash) ((?:[\w.-]+\/)+[\w.-]+\.(?:ts|sh))\b/g)) {
          commands++;
          expect({ page, file: m[1], exists: existsSync(join(ROOT, m[1]!)) }).toEqual({ page, file: m[1], exists: true });
        }
      }
    }
    expect(commands).toBeGreaterThanOrEqual(9);
  });

  test("every ```json block (client configurations, publisher.json) is valid JSON", async () => {
    const pages = ["README.md", ...(await readdir(join(ROOT, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    let blocks = 0;
    for (const page of pages) {
      for (const block of codeBlocks(await readFile(join(ROOT, page), "utf8"), "json")) {
        blocks++;
        let error: string | null = null;
        try {
          JSON.parse(block);
        } catch (thrown) {
          error = (thrown as Error).message;
        }
        expect({ page, error }).toEqual({ page, error: null });
      }
    }
    expect(blocks).toBeGreaterThanOrEqual(1);
  });

  test("every variable the service reads is in docs/configuration.md exactly once", async () => {
    const read = new Set<string>();
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith(".ts")) {
          for (const m of (await readFile(path, "utf8")).matchAll(/\benv(?:\.|\[")([A-Z][A-Z0-9_]+)/g)) read.add(m[1]!);
        }
      }
    };
    await walk(join(ROOT, "src"));
    read.delete("HOME"); // not a setting: the user's home folder is one of the server paths error answers hide
    expect(read.size).toBeGreaterThan(60);
    const configuration = await readFile(join(ROOT, "docs/configuration.md"), "utf8");
    const rows = [...configuration.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
    for (const name of read) expect({ name, rows: rows.filter((r) => r === name).length }).toEqual({ name, rows: 1 });
    for (const name of rows) expect({ name, read: read.has(name) }).toEqual({ name, read: true });
    // the README's short table names each variable once too
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    const readmeRows = [...readme.matchAll(/^\| (`[A-Z][A-Z0-9_]+`(?:, `[A-Z][A-Z0-9_]+`)*) \|/gm)].flatMap((m) => m[1]!.split(", "));
    expect(readmeRows.length).toBe(new Set(readmeRows).size);
  });

  test("the README stays a short introduction with a table of contents, and its examples leave no file in the checkout", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
    expect(readme).toContain("## Contents");
    for (const m of readme.matchAll(/\]\(#([a-z0-9-]+)\)/g)) {
      const anchors = [...readme.matchAll(/^#{2,3} (.+)$/gm)].map((h) => h[1]!.toLowerCase().replace(/[^a-z0-9 -]/g, "").replaceAll(" ", "-"));
      expect(anchors).toContain(m[1]!);
    }
    expect(filesAfter).toEqual(filesBefore);
    for (const block of codeBlocks(readme, "sh")) expect(block).not.toContain("jq ");
  });
});
