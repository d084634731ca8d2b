#!/usr/bin/env node
// CI's proof that `npm install` (the fallback when `npm ci` trips on the lockfile) installed the
// committed tree: package-lock.json must equal HEAD's, except for optional packages built for
// other platforms (entries with `os` or `cpu`). Whether npm lists those depends on what the
// registry serves that day, and they are never installed here, so they cannot drift the tree.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const committed = JSON.parse(execFileSync("git", ["show", "HEAD:package-lock.json"], { encoding: "utf8", maxBuffer: 64 << 20 }));
const installed = JSON.parse(readFileSync("package-lock.json", "utf8"));

const foreignOptional = (entry) => entry?.optional === true && (entry.os !== undefined || entry.cpu !== undefined);
const comparable = (lock) =>
  Object.fromEntries(Object.entries(lock.packages ?? {}).filter(([, entry]) => !foreignOptional(entry)));

const before = comparable(committed);
const after = comparable(installed);
const drifted = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
  (name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]),
);
const { packages: _a, ...committedRest } = committed;
const { packages: _b, ...installedRest } = installed;
if (JSON.stringify(committedRest) !== JSON.stringify(installedRest)) drifted.push("(lockfile header)");

if (drifted.length > 0) {
  console.error(`package-lock.json drifted from the committed tree in ${drifted.length} entries:`);
  for (const name of drifted.slice(0, 20)) console.error(`  ${name}`);
  process.exit(1);
}
console.log("package-lock.json: the installed tree is the committed one (other platforms' optional packages aside)");
