import type pg from "pg";

type Queryable = Pick<pg.ClientBase, "query">;

/**
 * With WEIR_PG_SEND_TIMEOUTS=0 (PgBouncer) the server's own settings are the only statement
 * timeout: a statement the client gave up on keeps its server connection, and the pooler's,
 * until it ends. This says what is wrong with them, or null when they hold.
 */
export async function serverTimeoutProblem(client: Queryable, statementTimeoutMs: number): Promise<string | null> {
  const { rows } = await client.query<{ role: string; ms: string }>(
    "select current_user as role, setting as ms from pg_settings where name = 'statement_timeout'",
  );
  const { role, ms } = rows[0]!;
  const fix = `ALTER ROLE "${role}" SET statement_timeout = '${statementTimeoutMs}ms'`;
  if (Number(ms) === 0) return `the server applies no statement timeout to role ${role} and WEIR_PG_SEND_TIMEOUTS=0 sends none: run ${fix}`;
  if (Number(ms) > statementTimeoutMs) {
    return `the server's statement timeout for role ${role} (${ms} ms) is longer than WEIR_PG_STATEMENT_TIMEOUT_MS (${statementTimeoutMs}): run ${fix}`;
  }
  return null;
}

/** Checks the first connection that opens (again after a failed check) and logs what is wrong, once. */
export function warnOnServerTimeouts(pool: pg.Pool, statementTimeoutMs: number): void {
  let state: "unchecked" | "checking" | "checked" = "unchecked";
  pool.on("connect", (client) => {
    if (state !== "unchecked") return;
    state = "checking";
    serverTimeoutProblem(client, statementTimeoutMs).then(
      (problem) => {
        state = "checked";
        if (problem) console.warn(`[weir] ${problem}`);
      },
      () => (state = "unchecked"),
    );
  });
}
