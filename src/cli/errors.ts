/**
 * Errors of the CLI and their exit codes: 1 the server refused or an operation
 * failed, 2 a usage error, 3 no valid credentials, 4 the server cannot be reached.
 * @module
 */

/** An error the CLI reports as one line and an exit code. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1, readonly code = "ERROR") {
    super(message);
    this.name = "CliError";
  }
}

/** A wrong command line: exit code 2, with a pointer to the command's help. */
export class UsageError extends CliError {
  constructor(message: string, readonly command?: string) {
    super(message, 2, "USAGE");
    this.name = "UsageError";
  }
}
