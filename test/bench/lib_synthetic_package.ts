/**
 * The synthetic package of the scale benchmarks (scale.ts, run_stages.ts):
 * sources of 25 dimensions (12 strings, 8 numbers, 4 dates, the id), 10
 * measures and a view, each over the same 200-row CSV.
 * @module
 */
import { zipSync } from "fflate";

const enc = new TextEncoder();
const REGIONS = ["north", "south", "east", "west"];
const STATUSES = ["open", "shipped", "returned", "cancelled", "pending"];
const CHANNELS = ["web", "store", "phone"];

/** 200 rows: an id, 12 low-cardinality strings, 8 numbers, 4 dates. */
function csv(): Uint8Array {
  const head = ["id", ...Array.from({ length: 12 }, (_, i) => `s${i}`), ...Array.from({ length: 8 }, (_, i) => `n${i}`), ...Array.from({ length: 4 }, (_, i) => `d${i}`)];
  const lines = [head.join(",")];
  for (let r = 0; r < 200; r++) {
    const strings = Array.from({ length: 12 }, (_, i) => {
      const pool = [REGIONS, STATUSES, CHANNELS][i % 3]!;
      return i < 9 ? pool[(r + i) % pool.length] : `code_${(r * (i + 3)) % 40}`;
    });
    const numbers = Array.from({ length: 8 }, (_, i) => ((r * (i + 7)) % 1000) / 10);
    const dates = Array.from({ length: 4 }, (_, i) => `2024-${String(((r + i) % 12) + 1).padStart(2, "0")}-${String((r % 28) + 1).padStart(2, "0")}`);
    lines.push([r, ...strings, ...numbers, ...dates].join(","));
  }
  return enc.encode(lines.join("\n") + "\n");
}

const SUBJECTS = ["orders", "shipments", "customers", "invoices", "returns", "stores", "suppliers", "payments", "visits", "tickets"];

/** One source: 25 dimensions (12 strings, 8 numbers, 4 dates, the id), 10 measures, one view. */
function sourceText(name: string, index: number): string {
  const dims = [
    `    #(doc) Identifier of the ${name} row\n    dimension: ${name}_id is id`,
    ...Array.from({ length: 12 }, (_, i) => `    dimension: ${name}_label_${i} is s${i}`),
    ...Array.from({ length: 8 }, (_, i) => `    dimension: ${name}_amount_${i} is n${i}`),
    ...Array.from({ length: 4 }, (_, i) => `    dimension: ${name}_day_${i} is d${i}`),
  ];
  const measures = Array.from({ length: 10 }, (_, i) =>
    i === 0 ? `    measure: ${name}_count is count()` : `    measure: ${name}_total_${i} is n${(i - 1) % 8}.sum()`);
  return `#(doc) ${SUBJECTS[index % SUBJECTS.length]} number ${index} of the business
source: ${name} is duckdb.table('data/rows.csv') extend {
${dims.join("\n")}
${measures.join("\n")}
    view: by_label is { group_by: ${name}_label_0; aggregate: ${name}_count, ${name}_total_1 }
}
`;
}

/** The files of a package of `sources` sources. */
export function packageFiles(sources: number, salt: string): Record<string, Uint8Array> {
  return {
    "publisher.json": enc.encode(JSON.stringify({ name: salt, description: `bench package ${salt}` })),
    "models/model.malloy": enc.encode(Array.from({ length: sources }, (_, i) => sourceText(`t${i}`, i)).join("\n")),
    "data/rows.csv": csv(),
  };
}

/** The zipped package of `sources` sources. */
export function packageZip(sources: number, salt: string): Uint8Array {
  return zipSync(packageFiles(sources, salt), { level: 6 });
}

