/**
 * First start: the JWT secret and the system administrator.
 * @module
 */
import type { Config } from "../config.ts";
import type { Sql } from "../db/database.ts";
import { countUsers, insertUser } from "../users/store.ts";

function randomSecret(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** `JWT_SECRET`, or a secret generated once and kept in the database. */
export async function jwtSecret(sql: Sql, config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  await sql`INSERT INTO settings (key, value) VALUES ('jwt_secret', ${randomSecret(48)}) ON CONFLICT (key) DO NOTHING`;
  const [row] = await sql`SELECT value FROM settings WHERE key = 'jwt_secret'`;
  return row!.value as string;
}

/** What bootstrap did. */
export interface BootstrapResult {
  created: boolean;
  userName?: string;
  /** Set only when the password was generated (print it once). */
  generatedPassword?: string;
}

/**
 * Creates the system administrator when there is no user yet. Concurrent
 * starts are serialized by an advisory lock so that only one creates it.
 */
export async function bootstrapAdmin(sql: Sql, config: Config): Promise<BootstrapResult> {
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(727002)`;
    if ((await countUsers(tx)) > 0) return { created: false };
    const generated = config.bootstrapAdminPassword ? undefined : randomSecret(18);
    const userName = config.bootstrapAdminUserName;
    await insertUser(tx, {
      userName,
      email: config.bootstrapAdminEmail ?? `${userName}@localhost`,
      passwordHash: await Bun.password.hash(config.bootstrapAdminPassword ?? generated!, {
        algorithm: "argon2id",
        memoryCost: config.passwordHashMemoryKib,
        timeCost: config.passwordHashTimeCost,
      }),
      systemAdmin: true,
      bootstrap: true,
      firstName: "System",
      lastName: "Administrator",
    });
    return { created: true, userName, generatedPassword: generated };
  });
}
