/**
 * `get_context` entities of field type `column`: raw table columns that the
 * model takes as they are (not renamed, no expression), beside dimensions,
 * measures and views; and the row-level security rule for them: a column of
 * an `#(authorize)` source reaches no caller outside its groups.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { waitForRuns } from "../../src/runs/worker.ts";
import { connectClient, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { API } from "../packages/helpers.ts";
import { type SalesWorld, startSalesWorld } from "../rls/world.ts";

let w: SalesWorld;
let served: Served;
let salesClient: Client;
let financeClient: Client;

interface Entity {
  name: string;
  field_type: string;
  data_type: string;
}
interface Answer {
  sources: { source_name: string; phrases: { entities: Entity[] }[] }[];
}

const text = (result: object) => (result as { content: { text: string }[] }).content[0]!.text;
const ask = async (client: Client, question: string) =>
  text(await client.callTool({ name: "get_context", arguments: { natural_language_query: question, environment_name: "prod", package_name: "sales" } }));
const entitiesOf = (answer: Answer, source: string) =>
  answer.sources.filter((s) => s.source_name === source).flatMap((s) => s.phrases.flatMap((p) => p.entities));

beforeAll(async () => {
  w = await startSalesWorld();
  await waitForRuns(w.s.service.ctx);
  served = serveOnLoopback(w.s.service.handle);
  salesClient = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${w.salesKey}`);
  const key = await w.s.call("POST", `${API}/organizations/acme/groups/finance/tokens?name=columns`, { token: w.admin });
  expect(key.status).toBe(201);
  financeClient = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key.body.secret}`);
}, 300_000);

afterAll(async () => {
  await salesClient?.close();
  await financeClient?.close();
  served?.stop();
  await w?.s.close();
}, 120_000);

describe("column entities", () => {
  test("a raw table column is an entity of field_type column; a dimension with an expression stays a dimension", async () => {
    const answer = JSON.parse(await ask(financeClient, "salary by region")) as Answer;
    const payroll = entitiesOf(answer, "payroll");
    expect(payroll.find((e) => e.name === "salary")).toMatchObject({ field_type: "column", data_type: "number" });
    const all = answer.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities));
    const region = all.find((e) => e.name === "payroll_region");
    expect(region?.field_type).toBe("dimension");
    const orders = JSON.parse(await ask(salesClient, "order amount")) as Answer;
    expect(entitiesOf(orders, "orders").find((e) => e.name === "amount")).toMatchObject({ field_type: "column", data_type: "number" });
  });

  test("a column of an #(authorize) source never reaches a caller outside its groups", async () => {
    for (const question of ["salary", "salary by region", "payroll salary column"]) {
      const raw = await ask(salesClient, question);
      const answer = JSON.parse(raw) as Answer;
      expect(answer.sources.map((s) => s.source_name)).not.toContain("payroll");
      expect(answer.sources.map((s) => s.source_name)).not.toContain("payroll_with_orders");
      const names = answer.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities.map((e) => e.name)));
      expect(names.filter((n) => /salary|payroll/i.test(n))).toEqual([]);
      // nor anywhere else in the answer (the phrase echoes the question, so it is taken out first)
      expect(raw.replaceAll(`"${question}"`, "").replaceAll(`'${question}'`, "")).not.toMatch(/salary|payroll/i);
    }
    // the same questions find it for the finance group
    expect(await ask(financeClient, "salary")).toContain('"salary"');
  });
});
