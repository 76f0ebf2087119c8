/**
 * The worked example of docs/row-level-security.md ("Worked example"),
 * built through the API: a model with a region-bound source and a
 * finance-only source, two users in two groups, an API key.
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { oauthMcpClient } from "../helpers/oauth.ts";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";

/** The model of the example (models/sales.malloy). */
export const SALES_MODEL = `##! experimental.parameters

#(doc) Orders; every caller sees the rows of its own region
#(bind) region_param=region
source: orders(region_param::string) is duckdb.table('data/orders.csv') extend {
  where: region = region_param
  #(index)
  dimension: order_region is region
  measure: revenue is amount.sum()
  measure: order_count is count()
  view: by_region is { group_by: region; aggregate: revenue }
}

#(doc) Salaries, for the finance group only
#(authorize) groups=[finance]
source: payroll is duckdb.table('data/payroll.csv') extend {
  #(index)
  dimension: payroll_region is region
  measure: total_salary is salary.sum()
}

source: big_orders is orders(region_param is "ignored") extend { where: amount > 15 }

source: payroll_with_orders is payroll extend {
  join_many: o is orders(region_param is "ignored") on region = o.region
}

query: revenue_by_region is orders(region_param is "ignored") -> by_region
`;

/** Orders of three regions. */
export const ORDERS_CSV = `id,region,amount
1,EU,10
2,EU,20
3,US,5
4,US,40
5,APAC,7
`;

/** Salaries by region. */
export const PAYROLL_CSV = `region,salary
EU,100
US,200
`;

/** The example's files. */
export function salesFiles(model = SALES_MODEL): Map<string, Uint8Array> {
  return new Map([
    ["publisher.json", bytes(JSON.stringify({ name: "sales", description: "row-level security example" }))],
    ["models/sales.malloy", bytes(model)],
    ["data/orders.csv", bytes(ORDERS_CSV)],
    ["data/payroll.csv", bytes(PAYROLL_CSV)],
  ]);
}

/** The example's world: tokens of ann (sales_eu), bob (finance), the sales_eu API key. */
export interface SalesWorld extends World {
  ann: string;
  bob: string;
  salesKey: string;
}

/** Calls the API as the system admin and expects `status`. */
export async function admin(w: World, method: string, path: string, body: unknown, status: number | number[]): Promise<Record<string, unknown>> {
  const r = await w.s.call(method, `${API}${path}`, { token: w.admin, body });
  if (![status].flat().includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Builds the worked example through the API (every step the page shows); `files` are added to the package. */
export async function startSalesWorld(env: Record<string, string> = {}, options: { model?: string; files?: Map<string, Uint8Array> } = {}): Promise<SalesWorld> {
  const w = await startWorld(env);
  // the attribute, declared before the model that binds it
  await admin(w, "PUT", "/organizations/acme/attributes/region", { type: "string" }, 201);
  const files = new Map([...salesFiles(options.model), ...(options.files ?? [])]);
  const published = await publish(w, "sales", "1.0.0", { token: w.admin, files });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
  const ann = await w.s.createUser("ann");
  const bob = await w.s.createUser("bob");
  for (const group of ["sales_eu", "finance"]) {
    await admin(w, "POST", "/organizations/acme/groups", { name: group }, 201);
    await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: `group:${group}`, permission: "viewer" }, 201);
  }
  for (const user of ["ann", "bob"]) await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: `user:${user}`, permission: "member" }, 201);
  await admin(w, "POST", "/organizations/acme/groups/sales_eu/members", { members: [{ principal: "user:ann", status: "member" }] }, [200, 201]);
  await admin(w, "POST", "/organizations/acme/groups/finance/members", { members: [{ principal: "user:bob", status: "member" }] }, [200, 201]);
  await admin(w, "PUT", "/organizations/acme/attributes/region/groups/sales_eu", { value: "EU", rank: 1 }, [200, 201]);
  await admin(w, "PUT", "/organizations/acme/attributes/region/users/bob", { value: "US" }, [200, 201]);
  const key = await w.s.call("POST", `${API}/organizations/acme/groups/sales_eu/tokens?name=bot`, { token: w.admin });
  if (key.status !== 201) throw new Error(`token: ${key.status}`);
  return { ...w, ann, bob, salesKey: key.body.secret as string };
}

/** Path of the example model's query route. */
export const SALES_QUERY = `${API}/organizations/acme/environments/prod/packages/sales/models/models/sales.malloy/query`;

/** Publisher's governed-analytics world (see {@link startGovernedWorld}). */
export interface GovernedWorld extends World {
  /** Group admins, ROLE admin: reads every tenant. */
  ada: string;
  /** Group acme_team, TENANT acme: reads acme's rows. */
  tom: string;
  /** Neither attribute: refused by the gates. */
  eve: string;
  /** An API key of group acme_team. */
  acmeKey: string;
  /** The service on a loopback port, for MCP clients. */
  served: Served;
  /** An MCP client with the acme API key. */
  acmeClient: Client;
  /** Closes the client, the loopback server and the service. */
  close(): Promise<void>;
}

const GOVERNED_DIR = new URL("../fixtures/governed-analytics/", import.meta.url).pathname;

/** The REST prefix of the governed-analytics package's models. */
export const GOVERNED_MODELS = `${API}/organizations/acme/environments/prod/packages/governed-analytics/models`;

/**
 * Publishes Publisher's governed-analytics example (test/fixtures/governed-analytics) unmodified in acme/prod,
 * with the trusted attributes ROLE and TENANT that fill its givens: ada (group admins, ROLE admin), tom (group
 * acme_team, TENANT acme), eve (no value), all environment viewers; an acme_team API key and an MCP client with it.
 */
export async function startGovernedWorld(): Promise<GovernedWorld> {
  const w = await startWorld();
  await admin(w, "PUT", "/organizations/acme/attributes/ROLE", { type: "string" }, 201);
  await admin(w, "PUT", "/organizations/acme/attributes/TENANT", { type: "string" }, 201);
  const files = new Map(readdirSync(GOVERNED_DIR).filter((f) => f !== "LICENSE").map((f) => [f, new Uint8Array(readFileSync(`${GOVERNED_DIR}/${f}`))]));
  const published = await publish(w, "governed-analytics", "1.0.0", { token: w.admin, files });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
  const [ada, tom, eve] = [await w.s.createUser("ada"), await w.s.createUser("tom"), await w.s.createUser("eve")];
  for (const group of ["admins", "acme_team"]) await admin(w, "POST", "/organizations/acme/groups", { name: group }, 201);
  for (const user of ["ada", "tom", "eve"]) {
    await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: `user:${user}`, permission: "member" }, 201);
    await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: `user:${user}`, permission: "viewer" }, 201);
  }
  await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: "group:acme_team", permission: "viewer" }, 201);
  await admin(w, "POST", "/organizations/acme/groups/admins/members", { members: [{ principal: "user:ada", status: "member" }] }, [200, 201]);
  await admin(w, "POST", "/organizations/acme/groups/acme_team/members", { members: [{ principal: "user:tom", status: "member" }] }, [200, 201]);
  await admin(w, "PUT", "/organizations/acme/attributes/ROLE/groups/admins", { value: "admin", rank: 1 }, [200, 201]);
  await admin(w, "PUT", "/organizations/acme/attributes/TENANT/groups/acme_team", { value: "acme", rank: 1 }, [200, 201]);
  const key = await w.s.call("POST", `${API}/organizations/acme/groups/acme_team/tokens?name=bot`, { token: w.admin });
  const acmeKey = key.body.secret as string;
  const served = serveOnLoopback(w.s.service.handle);
  const acmeClient = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${acmeKey}`);
  const close = async () => {
    await acmeClient.close();
    served.stop();
    await w.s.close();
  };
  return { ...w, ada, tom, eve, acmeKey, served, acmeClient, close };
}

/** The MCP clients of a sales world (see {@link connectSalesClients}). */
export interface SalesClients {
  /** The service on a loopback port. */
  served: Served;
  /** An MCP client with the sales_eu API key. */
  keyClient: Client;
  /** An MCP client signed in with OAuth as `userName`. */
  oauthClient: Client;
  /** Closes both clients, the loopback server and the service. */
  close(): Promise<void>;
}

/** Serves a sales world on loopback and connects an API-key MCP client and an OAuth one (default: ann). */
export async function connectSalesClients(w: SalesWorld, oauth = { userName: "ann", password: "pw-ann-secret" }): Promise<SalesClients> {
  const served = serveOnLoopback(w.s.service.handle);
  const keyClient = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${w.salesKey}`);
  const oauthClient = await oauthMcpClient(served.url, { org: "acme", ...oauth });
  const close = async () => {
    await keyClient.close();
    await oauthClient.close();
    served.stop();
    await w.s.close();
  };
  return { served, keyClient, oauthClient, close };
}
