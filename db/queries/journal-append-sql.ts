/** The journal's columns, in the order an append names them. */
export const JOURNAL_COLUMNS = "at, mode, subject, key, decision, version, matched_at, hash_version, caller, request_id, trace_id, ref";

// Column arrays, not a row per parameter: one plan for any batch size. `at` travels as integer
// microseconds so that no float rounding moves an entry.
export const APPEND_SQL = `
insert into journal (${JOURNAL_COLUMNS})
select timestamptz 'epoch' + u.a * interval '1 microsecond', u.m, u.s, u.k, u.d, u.v, u.ma, u.hv, u.c, u.r, u.t, u.ref
from unnest($1::int8[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::timestamptz[], $8::int4[], $9::text[], $10::text[], $11::text[], $12::text[])
  as u(a, m, s, k, d, v, ma, hv, c, r, t, ref)`;

/**
 * On Citus, the same append inside a function distributed by its last argument (a key of the
 * batch): called outside a transaction it runs on the worker holding that key's shard, where
 * rows of that shard are copied locally and commit once, with no two-phase commit.
 */
export const JOURNAL_APPEND_FUNCTION = {
  signature:
    "weir_journal_append_v2(bigint[], text[], text[], text[], text[], bigint[], timestamp with time zone[], integer[], text[], text[], text[], text[], text)",
  create: `create function weir_journal_append_v2(
  a bigint[], m text[], s text[], k text[], d text[], v bigint[], ma timestamptz[], hv integer[], c text[], r text[], t text[], ref text[], p_key text
) returns void language plpgsql as $fn$
begin
  ${APPEND_SQL.trim()};
end $fn$`,
};
