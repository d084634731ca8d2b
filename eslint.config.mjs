import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const noDatabaseInApp = {
  patterns: [
    { group: ["drizzle-orm", "drizzle-orm/*"], message: "app/ is routing only: call a verb in lib/ instead." },
    { group: ["@/db", "@/db/*", "**/db/*"], message: "app/ is routing only: call a verb in lib/ instead." },
    { group: ["pg", "@electric-sql/pglite"], message: "app/ never talks to the store directly." },
  ],
};

const eslintConfig = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [".next/**", "node_modules/**", ".weir-data/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "dist/**", "packages/*/dist/**"],
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", noDatabaseInApp] },
  },
  {
    // Tests read arbitrary JSON responses; typing every one would add nothing.
    files: ["**/*.test.ts", "test/**/*.ts", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // `total += await work()` in concurrent workers reads the total before the await and drops
      // the others' additions: it undercounted a bench's throughput eightfold.
      "require-atomic-updates": ["error", { allowProperties: true }],
    },
  },
];

export default eslintConfig;
