import pg from "pg";

/** The local PostgreSQL that tests clone their databases on (never a remote one). */
export const ADMIN_URL = process.env.WEIR_TEST_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function assertLocal(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]", ""].includes(host)) {
    throw new Error(`tests only run against a local PostgreSQL, not ${host}`);
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  assertLocal(ADMIN_URL);
  const client = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`tests need PostgreSQL at ${ADMIN_URL} (set WEIR_TEST_ADMIN_URL): ${(err as Error).message}`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
