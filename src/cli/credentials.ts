/**
 * Where the CLI keeps its logins: `credentials.json` in the user's config
 * folder (`$MALLOY_PLATFORM_CONFIG_DIR`, else `$XDG_CONFIG_HOME/malloy-platform`,
 * else `~/.config/malloy-platform`), readable by the user only (0600, folder
 * 0700). One entry per server URL: the access token, who it is for, when it
 * expires, and the default organization and environment given at login.
 * @module
 */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/** A stored login. */
export interface Login {
  token: string;
  userName: string;
  /** ISO 8601. */
  expiresAt: string;
  org?: string;
  env?: string;
}

/** The file's content. */
export interface Store {
  /** The server of the last login. */
  current?: string;
  servers: Record<string, Login>;
}

/** The folder of the CLI's files. */
function configDir(env: Record<string, string | undefined> = process.env): string {
  if (env.MALLOY_PLATFORM_CONFIG_DIR) return env.MALLOY_PLATFORM_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "malloy-platform");
}

/** The credentials file. */
export function credentialsFile(): string {
  return join(configDir(), "credentials.json");
}

/** The stored logins (none when the file is missing or unreadable). */
export async function readStore(): Promise<Store> {
  try {
    const parsed = JSON.parse(await readFile(credentialsFile(), "utf8")) as Store;
    return { current: parsed.current, servers: parsed.servers ?? {} };
  } catch {
    return { servers: {} };
  }
}

/** Writes the logins: a new file of mode 0600 moved over the old one. */
export async function writeStore(store: Store): Promise<void> {
  const dir = configDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = credentialsFile();
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

/** A server URL as stored: no trailing slash, no path. */
export function normalizeServer(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(/^https?:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    throw new Error(`'${url}' is not a server URL; give one like http://localhost:4000`);
  }
  return parsed.origin;
}
