/**
 * `bun run reset-admin-password`: recovers the system administrator of this
 * installation. Sets the password of `BOOTSTRAP_ADMIN_USERNAME` (default
 * `admin`; created as a system administrator when missing) to
 * `BOOTSTRAP_ADMIN_PASSWORD`, or to a generated one printed once, and makes
 * it a system administrator again. Uses the same `DATABASE_URL` / `DATA_DIR`
 * as the server; on the embedded database stop the server first (the data
 * directory's lock file says so).
 * @module
 */
import { readConfig } from "./config.ts";
import { openDatabase } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { lockDataDir } from "./lock.ts";
import { createPasswordHasher } from "./auth/passwords.ts";
import { findUser, insertUser, updateUser } from "./users/store.ts";

function generated(): string {
  const raw = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...raw)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

const config = readConfig();
let lock;
try {
  lock = lockDataDir(config.dataDir, "reset-admin-password");
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir + "/pg" });
try {
  await migrate(db.sql);
  const userName = config.bootstrapAdminUserName;
  const password = config.bootstrapAdminPassword ?? generated();
  const passwordHash = await createPasswordHasher(config).hash(password);
  const existing = await findUser(db.sql, userName);
  if (existing) await updateUser(db.sql, userName, { passwordHash, systemAdmin: true });
  else {
    await insertUser(db.sql, {
      userName,
      email: config.bootstrapAdminEmail ?? `${userName}@localhost`,
      passwordHash,
      systemAdmin: true,
      firstName: "System",
      lastName: "Administrator",
    });
  }
  console.log(config.bootstrapAdminPassword
    ? `The password of system administrator '${userName}' is now BOOTSTRAP_ADMIN_PASSWORD.`
    : `The password of system administrator '${userName}' is now: ${password}\nIt is shown only once.`);
} finally {
  await db.close();
  lock.release();
}
