import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import {
  closePackageDuckDB,
  type CompiledPackage,
  compilePackage,
  extractArchive,
  type ModelMetadata,
  modelMetadata,
  removeExtracted,
} from "../../src/engine/mod.ts";
import { fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

let cacheDir: string;
let pkgDir: string;
let compiled: CompiledPackage;
let flights: ModelMetadata;
let airports: ModelMetadata;

beforeAll(async () => {
  const files = await fixtureFiles();
  cacheDir = await tempDir("engine-metadata-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
  compiled = await compilePackage(files, pkgDir);
  flights = modelMetadata(compiled.models.get("flights.malloy")!);
  airports = modelMetadata(compiled.models.get("airports.malloy")!);
}, 120_000);

afterAll(async () => {
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

describe("modelMetadata", () => {
  test("lists the sources a model file defines, with doc and connection", () => {
    expect(flights.modelPath).toBe("flights.malloy");
    expect(flights.sources.map((s) => s.name)).toEqual(["flights"]);
    expect(flights.sources[0]).toMatchObject({
      name: "flights",
      description: "Flights between US airports",
      connection: "duckdb",
      file: "flights.malloy",
    });
    expect(airports.sources.map((s) => s.name).sort()).toEqual(["airports", "long_flights"]);
  });

  test("describes dimensions with data types, docs and #(index)", () => {
    const source = flights.sources[0];
    const byName = new Map(source.dimensions.map((d) => [d.path, d]));
    expect(byName.get("carrier_code")).toEqual({
      name: "carrier_code",
      path: "carrier_code",
      fieldType: "dimension",
      dataType: "string",
      description: "Two-letter airline code",
      indexed: true,
      joinPath: [],
    });
    expect(byName.get("distance")).toMatchObject({ dataType: "number", indexed: false, description: undefined });
    expect(byName.get("dep_date")).toMatchObject({ dataType: "date" });
    expect(byName.get("carrier")).toMatchObject({ fieldType: "dimension", indexed: false });
  });

  test("describes measures and views", () => {
    const source = flights.sources[0];
    expect(source.measures.map((m) => m.name)).toEqual(["flight_count", "total_distance"]);
    expect(source.measures[0]).toMatchObject({
      fieldType: "measure",
      dataType: "number",
      description: "How many flights",
      indexed: false,
    });
    expect(source.views).toEqual([{
      name: "by_carrier",
      path: "by_carrier",
      fieldType: "view",
      dataType: "view",
      description: "Flights and distance per carrier",
      indexed: false,
      joinPath: [],
    }]);
  });

  test("describes joins and the fields of joined sources with their join path", () => {
    const source = flights.sources[0];
    expect(source.joins).toEqual([
      expect.objectContaining({ name: "carriers", joinPath: [], relationship: "one" }),
    ]);
    const nickname = source.dimensions.find((d) => d.path === "carriers.nickname");
    expect(nickname).toMatchObject({ name: "nickname", joinPath: ["carriers"], dataType: "string" });
  });

  test("lists named queries with their doc and source", () => {
    expect(flights.queries).toEqual([
      { name: "carrier_summary", description: "The carrier summary", sourceName: "flights" },
    ]);
    expect(airports.queries).toEqual([
      { name: "texas", description: undefined, sourceName: "airports" },
    ]);
  });

  test("an extended source keeps the docs and index flags of its base", () => {
    const long = airports.sources.find((s) => s.name === "long_flights")!;
    expect(long.file).toBe("airports.malloy");
    expect(long.dimensions.find((d) => d.name === "carrier_code")).toMatchObject({
      indexed: true,
      description: "Two-letter airline code",
    });
    expect(airports.sources.find((s) => s.name === "airports")!.dimensions
      .find((d) => d.name === "state_code")).toMatchObject({ indexed: true });
  });

  test("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(flights))).toEqual(JSON.parse(JSON.stringify(flights)));
    expect(() => JSON.stringify(airports)).not.toThrow();
  });
});
