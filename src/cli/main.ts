#!/usr/bin/env bun
/**
 * `malloy-platform`: the command-line client of the platform (the `bin` of the
 * package). Commands: `login`, `logout`, `publish`, `query`, `runs`, `keys`;
 * `--help` on each, `--json` for scripts. Exit codes: 0 done, 1 the server
 * refused or the operation failed, 2 a wrong command line, 3 no valid
 * credentials, 4 the server cannot be reached. See docs/cli.md.
 * @module
 */
import { type ArgSpec, parseArgs } from "./args.ts";
import { keysCommand, loginCommand, logoutCommand, queryCommand, runsCommand } from "./commands.ts";
import { CliError, UsageError } from "./errors.ts";
import { publishCommand } from "./publish.ts";

const COMMON = `Options of every command:
  --server URL     the service (default: the last login's, or http://localhost:4000; env MALLOY_PLATFORM_SERVER)
  --org NAME       organization (default: login's --org, or the only one you belong to; env MALLOY_PLATFORM_ORG)
  --env NAME       environment (default: login's --env, or the only one; env MALLOY_PLATFORM_ENV)
  --api-key KEY    act with an API key instead of the stored login (env MALLOY_PLATFORM_API_KEY)
  --json           print JSON (for scripts)
  --help           this help`;

interface Command {
  spec: ArgSpec;
  usage: string;
  run(args: ReturnType<typeof parseArgs>): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  login: {
    spec: { values: ["user"], booleans: ["password-stdin"] },
    usage: `Usage: malloy-platform login [--server URL] [--user NAME] [--password-stdin] [--org NAME] [--env NAME]

Signs in and stores an access token for the server in a file only you can read
(~/.config/malloy-platform/credentials.json, mode 0600). Asks for the user name and
password on the terminal, or reads the password from standard input with --password-stdin.
--org and --env become the defaults of later commands.

Example:
  malloy-platform login --server http://localhost:4000 --user admin
  echo "$PASSWORD" | malloy-platform login --user ci --password-stdin`,
    run: loginCommand,
  },
  logout: {
    spec: {},
    usage: `Usage: malloy-platform logout [--server URL]

Forgets the token stored for the server.`,
    run: logoutCommand,
  },
  publish: {
    spec: { values: ["version", "name", "description", "timeout"], booleans: ["no-wait"] },
    usage: `Usage: malloy-platform publish DIR [--version X.Y.Z] [--name NAME] [--no-wait]

Zips the package folder DIR (hidden files left out), computes its md5 and publishes it
as a new version: the version is --version, else "version" of DIR/publisher.json; the
package name is --name, else "name" of publisher.json, else the folder's name. Shows the
upload and the publish's run (tables and indexes it builds) as progress bars on a terminal,
following the package's event stream, and ends with the package's query, app and MCP URLs.

  --version X.Y.Z  the version to create (three dot-separated integers)
  --name NAME      the package's name
  --description T  the package's description (default: publisher.json's)
  --no-wait        do not wait for the run
  --timeout S      longest wait for the run, seconds (default 600)

Exit code 1 when the publish is refused (the problems are listed) or its run fails.

Example:
  malloy-platform publish ./storefront --env examples`,
    run: publishCommand,
  },
  query: {
    spec: { values: ["view", "source", "limit", "version"] },
    usage: `Usage: malloy-platform query PKG MODEL 'MALLOY' | - | --source S --view V [--limit N] [--version X.Y.Z]

Runs a query against a model of a package (latest version unless --version) and prints
the rows as a table (JSON with --json). Give Malloy text, '-' to read it from standard
input, or a view or named query with --view (and --source for a view of a source).

Example:
  malloy-platform query storefront storefront.malloy 'run: order_items -> top_brands'
  malloy-platform query storefront storefront.malloy --source order_items --view by_category`,
    run: queryCommand,
  },
  runs: {
    spec: { values: ["limit"], booleans: ["cancel"] },
    usage: `Usage: malloy-platform runs PKG [RUN_ID] [--cancel] [--limit N]

Lists a package's runs, most recent first (state, units done), or shows one run with its
units; --cancel cancels a queued or running run.

Example:
  malloy-platform runs storefront
  malloy-platform runs storefront 0f4c...`,
    run: runsCommand,
  },
  keys: {
    spec: { values: ["expires"] },
    usage: `Usage: malloy-platform keys list GROUP
       malloy-platform keys create GROUP NAME [--expires 2027-01-31]
       malloy-platform keys revoke GROUP NAME

API keys of a group of your organization (a key acts with the group's permissions, for
MCP clients and scripts: Authorization: ApiKey <secret>). The secret is printed only by
create. You need to be an administrator of the group.`,
    run: keysCommand,
  },
};

const OVERVIEW = `malloy-platform: the command-line client of the Malloy data-modeling platform

Usage: malloy-platform COMMAND [options]

Commands:
  login             sign in and store a token for a server
  logout            forget the stored token
  publish DIR       publish a package folder as a new version, with progress
  query PKG MODEL   run a query and print the rows
  runs PKG          list a package's runs, or show or cancel one
  keys ACTION GROUP list, create or revoke API keys of a group

Run 'malloy-platform COMMAND --help' for a command's options.

${COMMON}

Exit codes: 0 done, 1 refused or failed, 2 wrong command line, 3 not logged in or
credentials refused, 4 server not reachable.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    const command = topic ? COMMANDS[topic] : undefined;
    process.stdout.write(`${command ? `${command.usage}\n\n${COMMON}` : OVERVIEW}\n`);
    return name ? 0 : 2;
  }
  if (name === "--version") {
    const pkg = await Bun.file(new URL("../../package.json", import.meta.url)).json() as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(", ")}`);
  const args = parseArgs(rest, command.spec, name);
  if (args.flags.has("help")) {
    process.stdout.write(`${command.usage}\n\n${COMMON}\n`);
    return 0;
  }
  return await command.run(args);
}

const json = process.argv.includes("--json");
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const cli = error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error), 1, "INTERNAL");
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: { code: cli.code, message: cli.message, exitCode: cli.exitCode } })}\n`);
  } else {
    const hint = cli instanceof UsageError ? `\nRun 'malloy-platform ${cli.command ? `${cli.command} ` : ""}--help' for usage.` : "";
    process.stderr.write(`malloy-platform: ${cli.message}${hint}\n`);
  }
  process.exitCode = cli.exitCode;
}
