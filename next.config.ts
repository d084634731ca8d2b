import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The database drivers hold process-wide handles (see db/client.ts); bundling
  // them would give Next its own copies of the module state.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "proper-lockfile"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
