/**
 * Writes `demo/shop/data/orders.csv`, the data of the demo package: 2,000
 * orders from a fixed-seed generator, so the file is the same on every run.
 * Run with `bun scripts/build_demo_data.ts`.
 * @module
 */
import { join } from "node:path";

const CATEGORIES: Record<string, [string, number][]> = {
  Books: [["Malloy in Action", 39], ["Data Modeling Patterns", 45], ["SQL Cookbook", 29]],
  Coffee: [["Espresso Beans 1kg", 24], ["Filter Roast 500g", 14], ["Decaf 500g", 15]],
  Garden: [["Pruning Shears", 19], ["Watering Can", 22], ["Seed Starter Kit", 12]],
  Kitchen: [["Chef Knife", 89], ["Cast Iron Pan", 55], ["Pepper Mill", 27]],
  Outdoor: [["Trail Backpack", 120], ["Headlamp", 35], ["Camping Stove", 64]],
};
const STATES = ["CA", "NY", "TX", "WA", "IL", "MA", "CO", "OR", "FL", "GA"];
const CHANNELS = ["web", "mobile", "store"];

/** Park-Miller minimal standard generator: deterministic across runtimes. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

async function main(): Promise<void> {
  const random = generator(20240101);
  const lines = ["order_id,order_date,customer_state,channel,category,product,quantity,unit_price"];
  const start = Date.UTC(2024, 0, 1);
  for (let i = 1; i <= 2000; i++) {
    const day = new Date(start + Math.floor(random() * 366) * 86_400_000).toISOString().slice(0, 10);
    const category = pick(random, Object.keys(CATEGORIES));
    const [product, price] = pick(random, CATEGORIES[category]!);
    const quantity = 1 + Math.floor(random() * random() * 5);
    lines.push([i, day, pick(random, STATES), pick(random, CHANNELS), category, product, quantity, price.toFixed(2)].join(","));
  }
  const out = join(import.meta.dir, "..", "demo", "shop", "data", "orders.csv");
  await Bun.write(out, lines.join("\n") + "\n");
  console.log(`wrote ${lines.length - 1} orders to ${out}`);
}

await main();
