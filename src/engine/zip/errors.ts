/**
 * Why the zip reader refused an archive: damaged or unsupported
 * ({@link ZipFormatError}), an entry that inflates past its byte budget
 * ({@link ZipBudgetError}), or more entries than allowed
 * ({@link ZipEntryCountError}). `archive.ts` turns each into its answer.
 * @module
 */

/** Why a zip could not be read; `archive.ts` turns it into a 400. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipFormatError";
  }
}

/** The inflated size of an entry went over its budget. */
export class ZipBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipBudgetError";
  }
}

/** The archive declares more entries than allowed. */
export class ZipEntryCountError extends Error {
  readonly count: number;
  constructor(count: number) {
    super(`the archive has ${count} entries`);
    this.name = "ZipEntryCountError";
    this.count = count;
  }
}
