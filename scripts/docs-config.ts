/** `npm run docs:config`: writes docs/configuration.md from the declarations in lib/config/variables.ts. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderReference } from "@/lib/config/reference";

export const REFERENCE_PATH = path.join(import.meta.dirname, "..", "docs", "configuration.md");

writeFileSync(REFERENCE_PATH, renderReference());
console.log(`wrote ${path.relative(process.cwd(), REFERENCE_PATH)}`);
