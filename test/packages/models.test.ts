import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { fixtureFiles } from "../fixtures/engine_package.ts";
import { API, publish, smallPackage, startWorld, userWith, type World } from "./helpers.ts";

setDefaultTimeout(60_000);

let w: World;
const P = `${API}/organizations/acme/environments/prod/packages`;
beforeAll(async () => {
  w = await startWorld();
  // the engine fixture: two models at the top level, one importing the other, CSV + Parquet + vega airports
  expect((await publish(w, "fixture", "1.0.0", { token: w.admin, files: await fixtureFiles() })).status).toBe(201);
  expect((await publish(w, "flights", "1.0.0", { token: w.admin })).status).toBe(201);
  const files = smallPackage({ "models/extra.malloy": 'import "flights.malloy"\nsource: f2 is flights extend { measure: c2 is count() }\n' });
  expect((await publish(w, "flights", "1.1.0", { token: w.admin, files })).status).toBe(201);
}, 120_000);
afterAll(() => w.s.close());

const get = (path: string, token = w.admin) => w.s.call("GET", path, { token });

describe("models", () => {
  test("list the models of the latest version, or of a named one", async () => {
    const latest = await get(`${P}/flights/models`);
    expect(latest.status).toBe(200);
    expect(latest.body.map((m: { path: string }) => m.path)).toEqual(["models/extra.malloy", "models/flights.malloy"]);
    expect(latest.body[0]).toMatchObject({ versionId: "1.1.0", packageName: "flights", sources: ["f2"] });
    const old = await get(`${P}/flights/models?versionId=1.0.0`);
    expect(old.body.map((m: { path: string }) => m.path)).toEqual(["models/flights.malloy"]);
    expect((await get(`${P}/flights/models?versionId=7.0.0`)).status).toBe(404);
  });

  test("model info: sources, fields with types and docs, views, named queries", async () => {
    const r = await get(`${P}/fixture/models/flights.malloy`);
    expect(r.status).toBe(200);
    const flights = r.body.sources.find((s: { name: string }) => s.name === "flights");
    expect(flights.description).toBe("Flights between US airports");
    expect(flights.connection).toBe("duckdb");
    const carrier = flights.dimensions.find((d: { name: string }) => d.name === "carrier_code");
    expect(carrier).toMatchObject({ fieldType: "dimension", dataType: "string", description: "Two-letter airline code", indexed: true });
    expect(flights.measures.find((m: { name: string }) => m.name === "flight_count")).toMatchObject({ dataType: "number", description: "How many flights" });
    expect(flights.views.map((v: { name: string }) => v.name)).toContain("by_carrier");
    expect(flights.dimensions.map((d: { path: string }) => d.path)).toContain("carriers.nickname");
    expect(r.body.queries).toEqual([{ name: "carrier_summary", sourceName: "flights", description: "The carrier summary" }]);
    const airports = await get(`${P}/fixture/models/airports.malloy`);
    expect(airports.body.sources.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(["airports", "long_flights"]));
  });

  test("nested model paths, the /projects spelling and URL-encoded slashes work", async () => {
    expect((await get(`${P}/flights/models/models/flights.malloy`)).status).toBe(200);
    expect((await get(`${API}/organizations/acme/projects/prod/packages/flights/models/models%2Fflights.malloy`)).status).toBe(200);
    expect((await get(`${P}/flights/models/models/flights.malloy?versionId=1.0.0`)).body.versionId).toBe("1.0.0");
  });

  test("bad model paths: 400; unknown model: 404", async () => {
    // %2E%2E is a dot segment to the URL parser: normalized away before routing, never a way out
    expect((await get(`${P}/flights/models/models/%2E%2E/flights.malloy`)).status).toBe(404);
    expect((await get(`${P}/flights/models/models/..%2F..%2Fetc/passwd.malloy`)).status).toBe(400);
    expect((await get(`${P}/flights/models/data/flights.csv`)).status).toBe(400);
    expect((await get(`${P}/flights/models/models//flights.malloy`)).status).toBe(400);
    expect((await get(`${P}/flights/models/nothing.malloy`)).status).toBe(404);
    expect((await get(`${P}/bad$pkg/models/flights.malloy`)).status).toBe(400);
  });

  test("viewer reads models; outsider 404", async () => {
    const viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
    const outsider = await userWith(w, "outsider");
    expect((await get(`${P}/flights/models`, viewer)).status).toBe(200);
    expect((await get(`${P}/flights/models/models/flights.malloy`, viewer)).status).toBe(200);
    expect((await get(`${P}/flights/models`, outsider)).status).toBe(404);
    expect((await get(`${P}/flights/models/models/flights.malloy`, outsider)).status).toBe(404);
  });

  test("entity rows carry a kind, source, model path and doc for retrieval", async () => {
    const rows = await w.s.service.db.sql`
      SELECT e.kind, e.name, e.path, e.source_name, e.data_type, e.description, e.indexed FROM model_entities e
        JOIN packages p ON p.id = e.package_id WHERE p.name = 'fixture' AND e.model_path = 'airports.malloy' ORDER BY e.kind, e.path`;
    const byName = Object.fromEntries(rows.map((r) => [`${r.source_name}.${r.path}:${r.kind}`, r]));
    expect(byName["airports.state_code:dimension"]).toMatchObject({ indexed: true, data_type: "string" });
    expect(byName["airports.airports:source"]).toBeDefined();
    expect(byName["airports.texas:query"]).toBeDefined();
  });
});
