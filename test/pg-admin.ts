import pg from "pg";

/** The local PostgreSQL that tests clone their databases on (never a remote one). */
export const ADMIN_URL = process.env.WEIR_TEST_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function assertLocal(url: string, who = "tests"): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]", ""].includes(host)) {
    throw new Error(`${who} only run against a local PostgreSQL, not ${host}`);
  }
}

/**
 * Creating and dropping databases on a local server through its admin URL;
 * shared by the tests and the benches, which differ only in the URL and who
 * is asking. `setting` names the variable that overrides the URL.
 */
export function localAdmin(adminUrl: string, who: string, setting: string) {
  return {
    databaseUrl(name: string): string {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
      assertLocal(adminUrl, who);
      const client = new pg.Client({ connectionString: adminUrl });
      try {
        await client.connect();
      } catch (err) {
        throw new Error(`${who} need PostgreSQL at ${adminUrl} (set ${setting}): ${(err as Error).message}`);
      }
      try {
        return await fn(client);
      } finally {
        await client.end();
      }
    },
  };
}

// `npm test` sets it to the server its preflight found or started; run directly, tests need one on 5432.
export const { databaseUrl, withAdmin } = localAdmin(ADMIN_URL, "tests", "WEIR_TEST_ADMIN_URL, or run them with `npm test -- unit`, which starts one");
