import fs from "node:fs";
import lockfile from "proper-lockfile";

/**
 * PGlite corrupts its data folder when two processes open it. A lock file that
 * the holder keeps fresh lets a second process refuse clearly, and a crashed
 * holder's lock expire by itself. Stale after 30 s: the holder refreshes it from
 * its event loop, which PGlite's WebAssembly blocks while a statement runs, and
 * on a loaded box a 10 s bound let a live holder's lock be taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}.lock`,
      stale: 30_000,
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
