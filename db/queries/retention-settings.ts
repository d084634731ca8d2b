import { runRaw } from "../raw";
import type { DbOrTx } from "../types";

/** The service's payload age limit before and after; no row when the service does not exist. */
export async function setPayloadRetention(db: DbOrTx, serviceId: string, seconds: number | null): Promise<{ before: number | null } | undefined> {
  const [row] = await runRaw<{ before: number | null }>(db, {
    name: "weir_retention_set_payloads_v1",
    text: `update services s set payload_retention_seconds = $2, updated_at = now()
      from (select id, payload_retention_seconds as before from services where id = $1 for update) old
      where s.id = old.id returning old.before`,
    values: [serviceId, seconds],
  });
  return row && { before: row.before === null ? null : Number(row.before) };
}

/** A scope without settings gets a row with the default lock and retention, and this limit. */
export async function setResponseRetention(db: DbOrTx, scope: string, seconds: number | null): Promise<{ before: number | null }> {
  const [old] = await runRaw<{ before: number | null }>(db, {
    name: "weir_retention_read_responses_v1",
    text: "select response_retention_seconds as before from idempotency_scopes where id = $1 for update",
    values: [scope],
  });
  await runRaw(db, {
    name: "weir_retention_set_responses_v1",
    // The time travels in VALUES: Citus refuses a non-immutable function in DO UPDATE SET.
    text: `insert into idempotency_scopes (id, response_retention_seconds, updated_at) values ($1, $2, now())
      on conflict (id) do update set response_retention_seconds = excluded.response_retention_seconds, updated_at = excluded.updated_at`,
    values: [scope, seconds],
  });
  return { before: old?.before == null ? null : Number(old.before) };
}
