/**
 * Assistant manifests shipped with the service (`src/coding/manifests/*.json`):
 * what an editor assistant is for, the tools it uses and its skills by
 * category. Read once per process and checked on load.
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** Folder of the shipped manifests. */
const MANIFESTS_DIR: string = join(import.meta.dir, "manifests");

/** One skill of a manifest. */
interface Skill {
  name: string;
  description: string;
  instructions: string;
}

/** An assistant manifest. */
export interface Manifest {
  name: string;
  title: string;
  description: string;
  version: string;
  tools: string[];
  /** Skills by category, e.g. `{ modeling: [...], publishing: [...] }`. */
  skills: Record<string, Skill[]>;
}

let loaded: Promise<Manifest[]> | undefined;

function checkManifest(value: unknown, file: string): Manifest {
  const m = value as Partial<Manifest> | null;
  const text = (v: unknown) => typeof v === "string" && v.trim() !== "";
  if (!m || !text(m.name) || !text(m.title) || !text(m.description) || !text(m.version) || !Array.isArray(m.tools) || typeof m.skills !== "object" || m.skills === null) {
    throw new Error(`manifest ${file} needs name, title, description, version, tools[] and skills { category: [...] }`);
  }
  for (const [category, list] of Object.entries(m.skills)) {
    if (!Array.isArray(list) || !list.every((s) => text(s?.name) && text(s?.description) && text(s?.instructions))) {
      throw new Error(`manifest ${file}: skills.${category} must list { name, description, instructions }`);
    }
  }
  return m as Manifest;
}

async function readManifests(dir: string): Promise<Manifest[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  const manifests: Manifest[] = [];
  for (const file of files) manifests.push(checkManifest(JSON.parse(await readFile(join(dir, file), "utf8")), file));
  return manifests.sort((a, b) => a.name.localeCompare(b.name));
}

/** Every shipped manifest, by name. */
export function listManifests(): Promise<Manifest[]> {
  loaded ??= readManifests(MANIFESTS_DIR);
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** One manifest by name, or `undefined`. */
export async function findManifest(name: string): Promise<Manifest | undefined> {
  return (await listManifests()).find((m) => m.name === name);
}
