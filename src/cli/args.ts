/**
 * Command-line arguments of the CLI: positionals and `--flag value`,
 * `--flag=value` or boolean `--flag`, checked against what a command takes.
 * @module
 */
import { UsageError } from "./errors.ts";

/** What a command accepts. */
export interface ArgSpec {
  /** Flags that take a value. */
  values?: readonly string[];
  /** Flags that take none. */
  booleans?: readonly string[];
}

/** Parsed arguments. */
export interface Args {
  positionals: string[];
  values: Record<string, string>;
  flags: Set<string>;
}

/** Flags every command takes. */
const COMMON_VALUES = ["server", "org", "env", "api-key"];
const COMMON_BOOLEANS = ["json", "help"];

/** Parses `argv` for a command; throws a {@link UsageError} naming an unknown flag or a missing value. */
export function parseArgs(argv: readonly string[], spec: ArgSpec, command: string): Args {
  const values = new Set([...COMMON_VALUES, ...(spec.values ?? [])]);
  const booleans = new Set([...COMMON_BOOLEANS, ...(spec.booleans ?? [])]);
  const out: Args = { positionals: [], values: {}, flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      out.flags.add("help");
      continue;
    }
    if (!arg.startsWith("--") || arg === "-") {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (booleans.has(name) && eq < 0) {
      out.flags.add(name);
    } else if (values.has(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`, command);
      out.values[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`, command);
    }
  }
  return out;
}
