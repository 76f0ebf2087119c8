import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { API, publish, smallPackage, startWorld, userWith, type World } from "./helpers.ts";
import { addressLiteral, checkedAddress, hostPolicy, isPublicAddress } from "../../src/connections/host_policy.ts";
import { createMalloyConnection } from "../../src/connections/drivers.ts";
import { environmentConnection, saveConnection } from "../../src/connections/store.ts";
import { openDatabase, type Database } from "../../src/db/database.ts";
import { SERVER_URL } from "../helpers/service.ts";

setDefaultTimeout(60_000);

const C = `${API}/organizations/acme/environments/prod/connections`;
const PASSWORD = "pg-Secret-Pa55word-hosts";
// The warehouse: the PostgreSQL server of TEST_DATABASE_URL, or a PGlite on a loopback port.
let warehouse: Database | undefined;
const pg = { host: "127.0.0.1", port: 5432, databaseName: "postgres", userName: "postgres", password: PASSWORD };
let closed: World; // default policy: nothing private allowed
let open: World; // ALLOWED_CONNECTION_HOSTS=127.0.0.1
let modeler: string;
let openModeler: string;

beforeAll(async () => {
  if (SERVER_URL) {
    const u = new URL(SERVER_URL);
    pg.host = u.hostname;
    pg.port = Number(u.port || 5432);
  } else {
    warehouse = await openDatabase({ tcp: true });
    pg.port = Number(new URL(warehouse.url).port);
  }
  closed = await startWorld({ CONNECTION_TEST_TIMEOUT_MS: "5000" });
  open = await startWorld({ CONNECTION_TEST_TIMEOUT_MS: "5000", ALLOWED_CONNECTION_HOSTS: `${pg.host},localhost` });
  modeler = await userWith(closed, "modeler", { kind: "environment", id: closed.envId, role: "modeler" });
  openModeler = await userWith(open, "modeler", { kind: "environment", id: open.envId, role: "modeler" });
}, 240_000);
afterAll(async () => {
  await closed?.s.close();
  await open?.s.close();
  await warehouse?.close();
}, 120_000);

describe("address spellings are read as the resolver reads them", () => {
  const loopback: Array<[string, string]> = [
    ["127.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0x7F.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0177.0.0.01", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
  ];
  for (const [spelling, address] of loopback) {
    test(`${spelling} is ${address}, not public`, () => {
      expect(addressLiteral(spelling)).toBe(address);
      expect(isPublicAddress(spelling)).toBe(false);
    });
  }
  const refused = [
    "::1", "[::1]", "::ffff:127.0.0.1", "[::ffff:127.0.0.1]", "::ffff:7f00:1", "0:0:0:0:0:ffff:7f00:1", "::127.0.0.1",
    "0.0.0.0", "0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "169.254.0.1",
    "100.64.0.1", "100.127.255.255", "fe80::1", "fe80::1%eth0", "fc00::1", "fd00:ec2::254", "[FD00:EC2::254]",
    "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "2002:7f00:1::", "64:ff9b::7f00:1", "224.0.0.1", "255.255.255.255",
  ];
  for (const address of refused) {
    test(`${address} is not public`, () => expect(isPublicAddress(address)).toBe(false));
  }
  for (const address of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111"]) {
    test(`${address} is public`, () => expect(isPublicAddress(address)).toBe(true));
  }
});

describe("names are resolved and every address checked", () => {
  const fake = (table: Record<string, string[]>) => async (host: string) => {
    const found = table[host.toLowerCase().replace(/\.$/, "")];
    if (!found) throw new Error("ENOTFOUND");
    return found;
  };
  const resolve = fake({
    "internal.example": ["10.0.0.5"],
    "mixed.example": ["93.184.216.34", "127.0.0.1"],
    "mapped.example": ["::ffff:127.0.0.1"],
    "metadata.example": ["fd00:ec2::254"],
    "public.example": ["93.184.216.34"],
    "warehouse.test": ["127.0.0.1"],
  });
  const none = hostPolicy("", resolve);
  for (const host of ["internal.example", "mixed.example", "MIXED.EXAMPLE.", "mapped.example", "metadata.example", "nowhere.example"]) {
    test(`${host} is refused`, async () => expect(checkedAddress(host, none)).rejects.toThrow());
  }
  test("a public name gives its address; a path or a user@host is no host", async () => {
    expect(await checkedAddress("public.example", none)).toBe("93.184.216.34");
    await expect(checkedAddress("/tmp", none)).rejects.toThrow("not a host name");
    await expect(checkedAddress("x@public.example", none)).rejects.toThrow("not a host name");
    await expect(checkedAddress("a,b", none)).rejects.toThrow("not a host name");
  });
  test("the system resolver: localhost is loopback (refused); listed, it is allowed", async () => {
    await expect(checkedAddress("localhost", hostPolicy(""))).rejects.toThrow("ALLOWED_CONNECTION_HOSTS");
    await expect(checkedAddress("localhost.", hostPolicy(""))).rejects.toThrow();
    await expect(checkedAddress("LocalHost", hostPolicy(""))).rejects.toThrow();
    expect(["127.0.0.1", "0:0:0:0:0:0:0:1"]).toContain(await checkedAddress("localhost", hostPolicy("localhost")));
  });
  test("ALLOWED_CONNECTION_HOSTS: addresses, CIDRs and names; nothing else", async () => {
    const p = hostPolicy("127.0.0.1, 10.0.0.0/8, fd00::/8, internal.example", resolve);
    expect(await checkedAddress("127.1", p)).toBe("127.0.0.1");
    expect(await checkedAddress("10.9.8.7", p)).toBe("10.9.8.7");
    expect(await checkedAddress("internal.example", p)).toBe("10.0.0.5");
    expect(await checkedAddress("metadata.example", p)).toBe("fd00:ec2:0:0:0:0:0:254");
    await expect(checkedAddress("127.0.0.2", p)).rejects.toThrow();
    await expect(checkedAddress("192.168.0.1", p)).rejects.toThrow();
    expect(() => hostPolicy("10.0.0.0/33")).toThrow("prefix");
    expect(() => hostPolicy("not a host!")).toThrow("ALLOWED_CONNECTION_HOSTS");
  });
  test("the driver connects to the checked address, not to the name again", async () => {
    // warehouse.test exists only in this resolver: the connection works only if pg gets the address
    const conn = await createMalloyConnection(
      { id: crypto.randomUUID(), envId: "e", name: "w", type: "postgres", config: { ...pg, host: "warehouse.test" }, secret: { password: PASSWORD } },
      { dataDir: closed.dataDir, hostPolicy: hostPolicy(pg.host === "127.0.0.1" ? "127.0.0.1" : pg.host, fake({ "warehouse.test": ["127.0.0.1"] })) },
    );
    try {
      const result = await conn.runSQL("SELECT 6 * 7 AS answer");
      expect(result.totalRows).toBe(1);
    } finally {
      await (conn as unknown as { close(): Promise<void> }).close();
    }
  });
});

describe("the API refuses non-public destinations unless allowed", () => {
  const spellings = ["127.0.0.1", "127.1", "0x7f.1", "2130706433", "017700000001", "[::ffff:127.0.0.1]", "::ffff:7f00:1", "::1", "localhost", "localhost.", "0.0.0.0"];
  for (const host of spellings) {
    test(`postgres host ${host}: 400 'connection failed' for a modeler, the reason for an admin`, async () => {
      const body = { name: "pgx", type: "postgres", postgresConnection: { ...pg, host } };
      const r = await closed.s.call("POST", C, { token: modeler, body });
      expect(r.status).toBe(400);
      expect(r.body.message).toStartWith("connection failed");
      expect(r.body.message).not.toMatch(/loopback|ECONNREFUSED|private|127/);
      const a = await closed.s.call("POST", C, { token: closed.admin, body });
      expect(a.status).toBe(400);
      expect(a.body.message).toMatch(/ALLOWED_CONNECTION_HOSTS|does not resolve/);
    });
  }
  const others: Array<[string, Record<string, unknown>]> = [
    ["metadata address", { type: "postgres", postgresConnection: { ...pg, host: "169.254.169.254" } }],
    ["IPv6 metadata address", { type: "postgres", postgresConnection: { ...pg, host: "fd00:ec2::254" } }],
    ["private network", { type: "postgres", postgresConnection: { ...pg, host: "10.0.0.1" } }],
    ["CGNAT", { type: "postgres", postgresConnection: { ...pg, host: "100.64.0.1" } }],
    ["link-local IPv6", { type: "postgres", postgresConnection: { ...pg, host: "fe80::1" } }],
    ["connection string to loopback", { type: "postgres", postgresConnection: { connectionString: `postgres://postgres:${PASSWORD}@127.1:${pg.port}/postgres` } }],
    ["connection string to a unix socket", { type: "postgres", postgresConnection: { connectionString: "postgres:///postgres?host=%2Ftmp" } }],
    ["connection string without host (pg's default: localhost)", { type: "postgres", postgresConnection: { connectionString: "postgres:///postgres" } }],
    ["mysql on loopback", { type: "mysql", mysqlConnection: { host: "0x7f.1", port: pg.port, userName: "u", password: "p" } }],
    ["trino on loopback", { type: "trino", trinoConnection: { server: `http://[::ffff:127.0.0.1]:${pg.port}`, userName: "u" } }],
    ["trino on a name resolving to loopback", { type: "trino", trinoConnection: { server: `http://localhost:${pg.port}`, userName: "u" } }],
  ];
  for (const [label, body] of others) {
    test(`${label}: refused`, async () => {
      const r = await closed.s.call("POST", C, { token: closed.admin, body: { name: "other", ...body } });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/ALLOWED_CONNECTION_HOSTS|not a host name|does not resolve/);
    });
  }
  test("connection strings naming server files are refused before any parsing", async () => {
    for (const param of ["sslrootcert=/etc/passwd", "sslkey=/etc/shadow", "sslcert=/etc/hosts", "hostaddr=127.0.0.1"]) {
      const r = await closed.s.call("POST", C, {
        token: closed.admin,
        body: { name: "cs", type: "postgres", postgresConnection: { connectionString: `postgres://u@example.com/db?${param}` } },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("may not set");
    }
  });
  test("the platform's own database: its socket folder is no host, by field or connection string", async () => {
    const url = new URL(closed.s.service.db.url);
    // embedded: postgres://...?host=<socket folder>; server: its own host (loopback here, refused without the list)
    const target = url.searchParams.get("host") ?? url.hostname;
    for (const postgresConnection of [
      { host: target, databaseName: "postgres", userName: "postgres" },
      { connectionString: `postgres:///postgres?host=${encodeURIComponent(target)}` },
      { connectionString: closed.s.service.db.url },
    ]) {
      const r = await closed.s.call("POST", C, { token: closed.admin, body: { name: "platform", type: "postgres", postgresConnection } });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/not a host name|ALLOWED_CONNECTION_HOSTS|does not resolve/);
    }
  });
  test("nothing was stored by the refused creates", async () => {
    const [n] = await closed.s.service.db.sql`SELECT count(*)::int AS n FROM connections`;
    expect(n!.n).toBe(0);
  });
  test("with ALLOWED_CONNECTION_HOSTS the same connection is accepted (and by the listed name)", async () => {
    const r = await open.s.call("POST", C, { token: openModeler, body: { name: "pg", type: "postgres", postgresConnection: pg } });
    expect(r.status).toBe(201);
    if (pg.host === "127.0.0.1") {
      const byName = await open.s.call("POST", C, { token: openModeler, body: { name: "pgname", type: "postgres", postgresConnection: { ...pg, host: "localhost" } } });
      expect(byName.status).toBe(201);
    }
    const other = await open.s.call("POST", C, { token: openModeler, body: { name: "pgx", type: "postgres", postgresConnection: { ...pg, host: "10.0.0.1" } } });
    expect(other.status).toBe(400);
  });
  test("a connection stored earlier is checked again when a query opens it", async () => {
    // stored directly (as if ALLOWED_CONNECTION_HOSTS was wider before): opening it now is refused
    const id = crypto.randomUUID();
    await saveConnection(closed.s.service.db.sql, { id, envId: closed.envId, name: "legacy", type: "postgres", config: pg, secret: { password: PASSWORD } }, { dataDir: closed.dataDir });
    await expect(environmentConnection(closed.s.service.db.sql, { envId: closed.envId, name: "legacy" }, { dataDir: closed.dataDir })).rejects.toThrow("not allowed");
    // a publish whose model uses it: refused with a 4xx that does not say where the name led
    const files = smallPackage({ "models/legacy.malloy": 'source: one is legacy.sql("""SELECT 1 AS one""")\n' });
    const r = await publish(closed, "legacy", "1.0.0", { token: modeler, files });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(JSON.stringify(r.body)).not.toMatch(/127\.0\.0\.1|PASSWORD|pg-Secret/);
    const conn = await environmentConnection(open.s.service.db.sql, { envId: open.envId, name: "pg" }, { dataDir: open.dataDir });
    expect((await conn!.runSQL("SELECT 1 AS one")).totalRows).toBe(1);
  });
});

describe("secrets follow the destination", () => {
  const P = `${C}/pg`;
  async function secretsOf(): Promise<string[]> {
    return (await open.s.call("GET", P, { token: openModeler })).body.secretFieldsSet;
  }
  test("a PATCH that keeps the destination keeps the password", async () => {
    expect(await secretsOf()).toEqual(["password"]);
    const r = await open.s.call("PATCH", P, { token: openModeler, body: { postgresConnection: { host: pg.host, port: pg.port } } });
    expect(r.status).toBe(200);
    expect(r.body.secretFieldsSet).toEqual(["password"]);
  });
  for (const [field, value] of [["host", "localhost"], ["port", 0], ["databaseName", "postgres2"], ["userName", "someone"]] as const) {
    test(`changing ${field} drops the stored password (the check ran without it, or the change was refused)`, async () => {
      const change = field === "port" ? pg.port + 1 : value;
      if (field === "host" && pg.host !== "127.0.0.1") return;
      const r = await open.s.call("PATCH", P, { token: openModeler, body: { postgresConnection: { [field]: change } } });
      if (r.status === 200) expect(r.body.secretFieldsSet).toEqual([]);
      else {
        expect(r.status).toBe(400);
        // refused: the old destination and its password stay together
        const now = (await open.s.call("GET", P, { token: openModeler })).body;
        expect(now.postgresConnection[field]).toEqual((pg as Record<string, unknown>)[field]);
      }
      // put it back, with the password in the same request
      const back = await open.s.call("PATCH", P, { token: openModeler, body: { postgresConnection: { ...pg } } });
      expect(back.status).toBe(200);
      expect(back.body.secretFieldsSet).toEqual(["password"]);
    });
  }
  test("a destination named by connectionString is a destination too: a new one drops the stored password", async () => {
    const url = (host: string) => `postgres://${pg.userName}@${host}:${pg.port}/${pg.databaseName}`;
    const made = await open.s.call("POST", C, { token: openModeler, body: { name: "pgcs", type: "postgres", postgresConnection: { connectionString: url(pg.host), password: PASSWORD } } });
    expect(made.status).toBe(201);
    expect([...made.body.secretFieldsSet].sort()).toEqual(["connectionString", "password"]);
    // the same connectionString again keeps it
    const same = await open.s.call("PATCH", `${C}/pgcs`, { token: openModeler, body: { postgresConnection: { connectionString: url(pg.host) } } });
    expect([same.status, [...same.body.secretFieldsSet].sort()]).toEqual([200, ["connectionString", "password"]]);
    // another host in connectionString: the password stays behind (or the change is refused and nothing moves)
    const moved = await open.s.call("PATCH", `${C}/pgcs`, { token: openModeler, body: { postgresConnection: { connectionString: url(pg.host === "127.0.0.1" ? "localhost" : "127.0.0.1") } } });
    if (moved.status === 200) expect(moved.body.secretFieldsSet).toEqual(["connectionString"]);
    else expect(moved.status).toBe(400);
    expect((await open.s.call("DELETE", `${C}/pgcs`, { token: openModeler })).status).toBe(204);
  });

  test("a new destination with a new password in the same request keeps that password", async () => {
    const r = await open.s.call("PATCH", P, { token: openModeler, body: { postgresConnection: { host: pg.host === "127.0.0.1" ? "localhost" : pg.host, password: `${PASSWORD}-2` } } });
    expect(r.status).toBe(200);
    expect(r.body.secretFieldsSet).toEqual(["password"]);
  });
});
