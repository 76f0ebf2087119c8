/**
 * The describer a publish runs in the compile worker (see
 * `compileInWorker`'s `describe`): a compiled model's metadata (sources,
 * fields, views, named queries, docs, index flags) and the access facts of
 * its sources (and the rules of its named queries), computed once, off the event loop, and answered as plain
 * data. The main thread checks the access rules with the database and
 * stores the metadata; it never walks the model.
 *
 * Loaded by the worker by URL ({@link DESCRIBE_MODEL}); it imports only pure
 * modules, so the worker loads no database or engine driver.
 * @module
 */
import type { DescribeInput } from "../engine/compile/protocol.ts";
import { type ModelMetadata, modelMetadata } from "../engine/compile/metadata.ts";
import { queryAccessRules, type SourceAccessFacts, sourceAccessFacts, trustedBy, withAccess } from "../rls/source_rules.ts";

/** What the describer answers for one model. */
export interface PublishedModelFacts {
  /** The model's metadata, with `access` on each source and named query that has rules. */
  metadata: ModelMetadata;
  /** The access facts of each exported source (for the publish check). */
  access: SourceAccessFacts[];
}

/** The URL of this module, for `compilePackage`'s `describe` option. */
export const DESCRIBE_MODEL = new URL(import.meta.url);

/**
 * Describes one compiled model (run in the compile worker, which imports this
 * module by URL: a use knip cannot follow).
 * @public
 */
export function describeModel(input: DescribeInput): PublishedModelFacts {
  const trusted = trustedBy(input.fileOf);
  const access = sourceAccessFacts(input.model, trusted);
  const metadata = modelMetadata({ path: input.path, model: input.model, pkg: { fileOf: input.fileOf } });
  return { metadata: withAccess(metadata, access, queryAccessRules(input.model, trusted)), access };
}
