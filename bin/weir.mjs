#!/usr/bin/env node
// The `weir` command: runs the TypeScript CLI through tsx with the package's own
// tsconfig (path aliases) and migrations, whatever the working directory.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = fileURLToPath(new URL("..", import.meta.url));
const migrations = fileURLToPath(new URL("../db/migrations", import.meta.url));
if (!process.env.WEIR_MIGRATIONS_DIR && existsSync(migrations)) process.env.WEIR_MIGRATIONS_DIR = migrations;

register({ tsconfig: `${root}tsconfig.json` });
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv);
