/**
 * The data directory's lock file: one server process per `DATA_DIR` (the
 * embedded database and the package cache are not shared between processes).
 * A second server, or an admin tool while the server runs, stops with a clear
 * error; a lock left by a crashed process (its pid is gone) is taken over.
 * @module
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";

/** A held lock. */
export interface DataDirLock {
  path: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Takes `DATA_DIR/server.lock` for this process; throws an `Error` naming the holder when another live process has it. */
export function lockDataDir(dataDir: string, purpose = "server"): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "server.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, `${process.pid}\n${purpose}\n`);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(path, "utf8").split("\n")[0] === String(process.pid)) unlinkSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      const [pidText, holder] = readFileSync(path, "utf8").split("\n");
      const pid = Number(pidText);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(
          `DATA_DIR ${resolve(dataDir)} is in use by another ${holder || "server"} (pid ${pid}, lock file ${resolve(path)}); ` +
            "stop it first, or give this one another DATA_DIR",
        );
      }
      try {
        unlinkSync(path); // left by a process that is gone
      } catch {
        // another starter removed it first
      }
    }
  }
  throw new Error(`could not take the lock file ${resolve(path)}`);
}
