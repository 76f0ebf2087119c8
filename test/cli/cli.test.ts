/**
 * The CLI end to end: `bun src/cli/main.ts` run as a process against the
 * service run as a process (`bun src/main.ts` on a free port): help and
 * usage errors, login (token file of mode 0600), publish of Publisher's
 * storefront example as it is (version from its publisher.json) with its
 * run followed on the event stream and the URLs it prints answering, the
 * progress bars on a terminal (a pty from `script`), query, runs, and API
 * keys created, used and revoked; exit codes 0 to 4.
 * @module
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtemp, rm, stat, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type MainProcess, ROOT, startMain, stopAll, waitHealthy } from "../helpers/process.ts";
import { SERVER_URL } from "../helpers/service.ts";
import { smallPackage } from "../packages/helpers.ts";

setDefaultTimeout(120_000);

const PASSWORD = "cli-admin-password";
const STOREFRONT = join(ROOT, "test", "fixtures", "publisher_storefront");
let main: MainProcess;
let dataDir: string;
let configDir: string;
let closeDatabase: () => Promise<void> = async () => {};
let admin: string;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` (its own config folder), optionally writing `stdin`. */
async function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<Ran> {
  const proc = Bun.spawn(["bun", "src/cli/main.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, MALLOY_PLATFORM_CONFIG_DIR: configDir, MALLOY_PLATFORM_SERVER: "", MALLOY_PLATFORM_API_KEY: "", ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function api(method: string, path: string, body?: unknown, token = admin): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await fetch(`${main.base}/api/v0${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text && r.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "cli-svc-"));
  configDir = await mkdtemp(join(tmpdir(), "cli-config-"));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
    RATE_LIMIT_PER_MINUTE: "0",
    PASSWORD_HASH_MEMORY_KIB: "1024",
    PASSWORD_HASH_TIME_COST: "1",
  };
  if (SERVER_URL) {
    const name = `t_cli_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const server = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
    await server.unsafe(`CREATE DATABASE ${name}`);
    const u = new URL(SERVER_URL);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    closeDatabase = async () => {
      await server.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.end();
    };
  }
  main = startMain(env);
  await waitHealthy(main, 90_000);
  const t = await fetch(`${main.base}/api/v0/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: PASSWORD }) });
  admin = ((await t.json()) as { accessToken: string }).accessToken;
  expect((await api("POST", "/organizations", { name: "acme" })).status).toBe(201);
  expect((await api("POST", "/organizations/acme/environments", { name: "examples" })).status).toBe(201);
}, 150_000);

afterAll(async () => {
  await stopAll();
  await closeDatabase();
  await rm(dataDir, { recursive: true, force: true });
  await rm(configDir, { recursive: true, force: true });
}, 60_000);

describe("malloy-platform CLI", () => {
  test("help on every command; usage errors exit 2 and point to the help", async () => {
    const overview = await cli(["--help"]);
    expect(overview.code).toBe(0);
    for (const c of ["login", "publish", "query", "runs", "keys"]) expect(overview.stdout).toContain(c);
    for (const c of ["login", "logout", "publish", "query", "runs", "keys"]) {
      const help = await cli([c, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: malloy-platform ${c}`);
    }
    expect((await cli([])).code).toBe(2);
    const unknown = await cli(["publsh"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'publsh'");
    const flag = await cli(["runs", "x", "--colour"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option --colour");
    expect(flag.stderr).toContain("malloy-platform runs --help");
  });

  test("the service, its stdout not a terminal, logs JSON lines; the listening line names the console, docs and MCP URLs", () => {
    const lines = main.printed().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const listening = lines.find((l) => String(l.message).startsWith("listening on"));
    expect(listening).toMatchObject({ level: "info", urls: { console: `${main.base}/`, docs: `${main.base}/api/v0/docs`, mcp: `${main.base}/mcp/{organization}` } });
  });

  test("before login: exit 3 saying how to log in; an unreachable server: exit 4", async () => {
    const r = await cli(["runs", "storefront", "--server", main.base]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`malloy-platform login --server ${main.base}`);
    const down = await cli(["login", "--server", "http://127.0.0.1:9", "--user", "admin", "--password-stdin"], { stdin: "x\n" });
    expect(down.code).toBe(4);
    expect(down.stderr).toContain("cannot reach http://127.0.0.1:9");
  });

  test("login: a wrong password exits 3; the right one stores the token in a 0600 file", async () => {
    const wrong = await cli(["login", "--server", main.base, "--user", "admin", "--password-stdin"], { stdin: "nope\n" });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain("refused the user name or password");
    const ok = await cli(["login", "--server", main.base, "--user", "admin", "--password-stdin", "--env", "examples"], { stdin: `${PASSWORD}\n` });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`Logged in to ${main.base} as admin`);
    const file = join(configDir, "credentials.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = await Bun.file(file).json();
    expect(stored.current).toBe(main.base);
    expect(stored.servers[main.base]).toMatchObject({ userName: "admin", env: "examples", token: expect.any(String) });
    // the password is not stored
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
  });

  test("publish of Publisher's storefront, as it is: version from publisher.json, the run followed, URLs that answer", async () => {
    const r = await cli(["publish", STOREFRONT, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer).toMatchObject({ organization: "acme", environment: "examples", package: "storefront", version: "1.0.0" });
    expect(answer.run.state).toBe("succeeded");
    expect(answer.models).toContain("storefront.malloy");
    const q = await fetch(answer.urls.query, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "run: order_items -> { aggregate: order_count }" }),
    });
    expect(q.status).toBe(200);
    expect(((await q.json()) as { data: Array<{ order_count: number }> }).data[0]!.order_count).toBeGreaterThan(0);
    const app = await fetch(answer.urls.app, { headers: { authorization: `Bearer ${admin}` } });
    expect(app.status).toBe(200);
    expect(await app.text()).toContain('<script src="/sdk/publisher.js"></script>');
    const mcp = await fetch(answer.urls.mcp, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(mcp.status).toBe(401);
    // what the CLI reported is what the service holds
    const run = await api("GET", `/organizations/acme/environments/examples/packages/storefront/runs/${answer.runId}`);
    expect(run.body.state).toBe("succeeded");
  });

  test("publishing a version that exists exits 1 saying to bump it", async () => {
    const r = await cli(["publish", STOREFRONT]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("already exists");
    expect(r.stderr).toContain('bump "version" in publisher.json or pass --version');
  });

  test("on a terminal: upload and run progress bars, then the URLs", async () => {
    const command = ["bun", "src/cli/main.ts", "publish", STOREFRONT, "--version", "1.0.1"].join(" ");
    const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], {
      cwd: ROOT,
      env: { ...process.env, MALLOY_PLATFORM_CONFIG_DIR: configDir, TERM: "xterm", COLUMNS: "120" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const screen = text.replace(/\x1b\[2K/g, "");
    expect(screen).toMatch(/upload +\[#{28}\] 100% {2}storefront 1\.0\.1/);
    expect(screen).toMatch(/run +\[#{28}\] 100% {2}succeeded/);
    expect(screen).toContain("Published storefront 1.0.1 to acme/examples");
    expect(screen).toContain(`App     ${main.base}/api/v0/organizations/acme/environments/examples/packages/storefront/app/`);
    expect(screen).toContain(`MCP     ${main.base}/mcp/acme`);
  });

  test("a package with an indexed dimension: the run's units counted from its events; a folder without a version exits 2", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-pkg-"));
    for (const [path, bytes] of smallPackage()) {
      await mkdir(join(dir, path, ".."), { recursive: true });
      await writeFile(join(dir, path), bytes);
    }
    const missing = await cli(["publish", dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`add "version": "1.0.0" to ${dir}/publisher.json or pass --version 1.0.0`);
    const r = await cli(["publish", dir, "--version", "2.0.0", "--json"]);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.package).toBe("flights");
    expect(answer.run).toMatchObject({ state: "succeeded", unitsDone: 1, unitsTotal: 1 });
    const runs = await cli(["runs", "flights"]);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toContain(answer.runId);
    expect(runs.stdout).toMatch(/2\.0\.0 +succeeded +\d{4}-/);
    const one = await cli(["runs", "flights", answer.runId]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`Run ${answer.runId} of flights 2.0.0: succeeded, 1/1 units done`);
    expect(one.stdout).toContain("flights.carrier_code");
    await rm(dir, { recursive: true, force: true });
  });

  test("a gate over a given no attribute fills: published, with a warning on stderr naming it, and in --json", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-gate-"));
    await mkdir(join(dir, "data"), { recursive: true });
    await writeFile(join(dir, "publisher.json"), JSON.stringify({ name: "tiers", version: "1.0.0" }));
    await writeFile(join(dir, "data", "orders.csv"), "id,region\n1,EU\n2,US\n");
    await writeFile(join(dir, "tiers.malloy"), `##! experimental.givens
given: TIER :: string is ''
#(authorize) "$TIER = 'gold'"
source: gated is duckdb.table('data/orders.csv')
`);
    const r = await cli(["publish", dir, "--no-wait"]);
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining("Published tiers 1.0.0")]);
    expect(r.stderr).toContain("warning: tiers.malloy: source 'gated': its #(authorize) gate reads $TIER");
    expect(r.stderr).toContain("PUT /organizations/{org}/attributes/TIER");
    const json = await cli(["publish", dir, "--version", "1.0.1", "--no-wait", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).accessWarnings).toEqual([expect.stringContaining("$TIER")]);
    await rm(dir, { recursive: true, force: true });
  });

  test("query: a table of rows, JSON for scripts, a compile error at its line exits 1", async () => {
    const r = await cli(["query", "storefront", "storefront.malloy", "run: order_items -> { group_by: status; aggregate: order_count; order_by: status }"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^status +order_count$/);
    expect(r.stdout).toMatch(/rows? in \d+ ms \(version 1\.0\.1\)/);
    const json = await cli(["query", "storefront", "storefront.malloy", "-", "--json", "--limit", "2"], { stdin: "run: order_items -> top_brands" });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).data).toHaveLength(2);
    const bad = await cli(["query", "storefront", "storefront.malloy", "run: order_items -> {\n  group_by: nope\n}"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("query:2:");
    expect(bad.stderr).toContain("'nope' is not defined");
    const badJson = await cli(["query", "storefront", "storefront.malloy", "run: x", "--json"]);
    expect(badJson.code).toBe(1);
    expect(JSON.parse(badJson.stderr).error).toMatchObject({ code: "VALIDATION_ERROR", exitCode: 1 });
  });

  test("keys: create prints the secret once, it works as --api-key, revoke ends it (exit 3)", async () => {
    expect((await api("POST", "/organizations/acme/groups", { name: "ci" })).status).toBe(201);
    expect((await api("POST", "/organizations/acme/environments/examples/permissions", { userGroupId: "group:ci", permission: "viewer" })).status).toBe(201);
    const created = await cli(["keys", "create", "ci", "deploy"]);
    expect(created.code).toBe(0);
    const secret = /^ {2}(\S+)$/m.exec(created.stdout)![1]!;
    expect(secret.length).toBeGreaterThan(20);
    const listed = await cli(["keys", "list", "ci", "--json"]);
    expect(JSON.parse(listed.stdout).map((k: { name: string }) => k.name)).toEqual(["deploy"]);
    expect(listed.stdout).not.toContain(secret);
    const asKey = await cli(["runs", "storefront", "--api-key", secret, "--org", "acme"]);
    expect(asKey.code).toBe(0);
    const revoked = await cli(["keys", "revoke", "ci", "deploy"]);
    expect(revoked.code).toBe(0);
    const after = await cli(["runs", "storefront", "--api-key", secret, "--org", "acme"]);
    expect(after.code).toBe(3);
    expect(after.stderr).toContain("check the API key");
  });
});
