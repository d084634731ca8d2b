/** The counters of one flush, as column arrays: one plan for any batch size. */
export const STATS_FLUSH_SQL = `
insert into stats_minute as s (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::int8[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[])
on conflict (subject_kind, subject, bucket) do update set
  checks = s.checks + excluded.checks, new = s.new + excluded.new, changed = s.changed + excluded.changed,
  duplicates = s.duplicates + excluded.duplicates, errors = s.errors + excluded.errors,
  late_redeliveries = s.late_redeliveries + excluded.late_redeliveries`;

/**
 * On Citus, the same upsert inside a function distributed by its last argument (a subject of the
 * batch, all of one shard): called outside a transaction it runs on the worker holding that shard
 * and commits there once. The plain statement is an INSERT ... SELECT pulled to the coordinator
 * and copied to every shard it names with a two-phase commit.
 */
export const STATS_FLUSH_FUNCTION = {
  signature: "weir_stats_flush_v1(text[], text[], timestamp with time zone[], bigint[], bigint[], bigint[], bigint[], bigint[], bigint[], text)",
  create: `create function weir_stats_flush_v1(
  k text[], s text[], b timestamptz[], c bigint[], n bigint[], ch bigint[], d bigint[], e bigint[], l bigint[], p_subject text
) returns void language plpgsql as $fn$
begin
  ${STATS_FLUSH_SQL.trim()};
end $fn$`,
};
