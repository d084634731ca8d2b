import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sleep } from "./cli";
import { ROOT } from "./processes";

/** Whether a `next build` is running on this machine (its process names itself next-build). */
function nextBuildRunning(): boolean {
  return readdirSync("/proc").some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "next-build";
    } catch {
      return false;
    }
  });
}

/**
 * A private copy of the production build (.next and the bundled dist/server.mjs) in a
 * temporary directory whose other entries link to the checkout, so that a build started
 * elsewhere in the checkout while the server runs cannot swap its files underneath it.
 */
export async function snapshotBuild(): Promise<{ dir: string; remove(): void }> {
  for (let waited = 0; nextBuildRunning(); waited++) {
    if (waited === 0) console.log("  waiting for a running next build to finish before copying .next");
    if (waited > 900) throw new Error("a next build has run for 15 minutes; try again later");
    await sleep(1000);
  }
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  const bundled = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT, encoding: "utf8" });
  if (bundled.status !== 0) throw new Error(`bundling server.ts failed:\n${bundled.stderr}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "weir-build-"));
  cpSync(path.join(ROOT, ".next"), path.join(dir, ".next"), { recursive: true });
  cpSync(path.join(ROOT, "dist"), path.join(dir, "dist"), { recursive: true });
  for (const entry of readdirSync(ROOT)) {
    if (![".next", "dist", ".git"].includes(entry)) symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
