// Plain JavaScript, so the repository's type check needs no tsdown installed (worktrees share a node_modules).
import { defineConfig } from "tsdown";

// One entry, two formats and their declarations. The wire types come from the server's zod
// schemas (lib/validation), whose declarations are bundled in, so zod is the one dependency
// (types only: the JavaScript imports nothing but node: built-ins).
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  platform: "node",
  target: "node20",
  dts: true,
  clean: true,
  sourcemap: false,
  external: ["zod"],
});
