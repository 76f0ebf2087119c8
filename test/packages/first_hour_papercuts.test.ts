/**
 * First-hour papercuts: a model whose data paths are written relative to
 * another root (the folder the package was zipped from) fails once, saying
 * that paths are relative to the package root and naming the file that
 * exists; notebooks are listed as notebooks, not models.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytes, FLIGHTS_CSV } from "../fixtures/engine_package.ts";
import { API, publish, startWorld, type World } from "./helpers.ts";

let w: World;
const E = `${API}/organizations/acme/environments/prod`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
}, 120_000);
afterAll(() => w?.s.close());

const model = (path: string, name: string) => `source: ${name} is duckdb.table('${path}') extend {
  measure: n is count()
}
`;

describe("data paths relative to another root", () => {
  test("one message says paths are relative to the package root and suggests the file that exists", async () => {
    const files = new Map<string, Uint8Array>([
      ["publisher.json", bytes(JSON.stringify({ name: "imdb" }))],
      ["data/flights.csv", bytes(FLIGHTS_CSV)],
    ]);
    for (let i = 0; i < 8; i++) files.set(`models/m${i}.malloy`, bytes(model("imdb/data/flights.csv", `s${i}`)));
    const r = await publish(w, "imdb", "1.0.0", { token: w.admin, files });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("relative to the package root");
    expect(r.body.message).toContain("'data/flights.csv'");
    expect(r.body.message.match(/relative to the package root/g)?.length).toBe(1);
    expect(r.body.message.match(/imdb\/data\/flights\.csv/g)?.length).toBe(1);
    expect(r.body.message).not.toContain("more");
    expect(r.body.problems[0]).toMatchObject({ code: "data-path-not-found" });
  });
});

describe("notebooks", () => {
  test("a published notebook is listed as a notebook, not a model", async () => {
    const files = new Map<string, Uint8Array>([
      ["publisher.json", bytes(JSON.stringify({ name: "nb" }))],
      ["data/flights.csv", bytes(FLIGHTS_CSV)],
      ["models/flights.malloy", bytes(model("data/flights.csv", "flights"))],
      ["notebooks/tour.malloynb", bytes('>>>markdown\n# Tour\n>>>malloy\nimport "../models/flights.malloy"\n>>>malloy\nrun: flights -> { aggregate: n }\n')],
    ]);
    const r = await publish(w, "nb", "1.0.0", { token: w.admin, files });
    expect(r.status).toBe(201);
    expect(r.body.models).toEqual(["models/flights.malloy"]);
    expect(r.body.notebooks).toEqual(["notebooks/tour.malloynb"]);
    const list = await w.s.call("GET", `${E}/packages/nb/models`, { token: w.admin });
    expect(list.body.map((m: { path: string; kind: string }) => [m.path, m.kind])).toEqual([
      ["models/flights.malloy", "model"],
      ["notebooks/tour.malloynb", "notebook"],
    ]);
  });
});
