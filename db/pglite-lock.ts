import fs from "node:fs";
import lockfile from "proper-lockfile";

/**
 * PGlite corrupts its data folder when two processes open it. A lock file that
 * the holder keeps fresh (stale after 10 s) lets a second process refuse
 * clearly, and a crashed holder's lock expire by itself.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}.lock`,
      stale: 10_000,
      update: 3_000,
      realpath: false,
      onCompromised: (err) => console.error(`[weir] embedded store lock lost: ${err.message}`),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new Error(
        `Another weir process is using the embedded store at ${dataDir}. ` +
          "Stop it first, point WEIR_DATA_DIR at another folder, or set DATABASE_URL to use PostgreSQL.",
      );
    }
    throw err;
  }
}
