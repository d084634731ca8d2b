import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { rollUpJournalAnswers } from "@/db/queries/journal-answers";
import { createJournalPartitions, dayStart } from "@/db/queries/journal-partitions";
import * as schema from "@/db/schema";
import { runReset } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";
import { withIndexesDropped, type BenchDatabase } from "./db";
import { insertSpreadKeys, rollUpAllHours } from "./console-seed";

export interface ConsoleShape {
  keys: number;
  services: number;
  perService: number;
  groups: number;
  claimsPerGroup: number;
  scopes: number;
  keysPerScope: number;
  statsDays: number;
  /** Journal entries per hour over the last JOURNAL_HOURS (see seedJournal). */
  journalPerHour: number;
}

/** The journal's seeded span: the 24 h the Sources page reads and the 24 h it compares them with. */
export const JOURNAL_HOURS = 48;

export function consoleShape(keys: number): ConsoleShape {
  const services = Math.min(100, Math.max(5, Math.round(keys / 100_000)));
  const groups = Math.min(20, Math.max(2, Math.round(services / 5)));
  const scopes = 5;
  return {
    keys,
    services,
    perService: Math.floor(keys / services),
    groups,
    claimsPerGroup: Math.max(1000, Math.floor(keys / 10 / groups)),
    scopes,
    keysPerScope: Math.max(1000, Math.floor(keys / 100 / scopes)),
    statsDays: 7,
    // A store of N keys whose keys arrived over 30 days takes N / 720 new keys an hour; with the
    // changes and duplicates of the journal's mix (60 % new) that is about N / 500 answers an hour.
    journalPerHour: Math.max(1000, Math.floor(keys / 500)),
  };
}

/** Keys of the few small services added beside the shape's: below and above the exact-count cap. */
export const SMALL_SERVICE_KEYS = [300, 1_200, 4_000, 9_000, 15_000];

export const svc = (i: number) => `svc-${String(i).padStart(3, "0")}`;

/**
 * Loads the store straight with generate_series (indexes rebuilt after the
 * bulk loads): last-seen keys over the services, kept payload versions for the
 * first tenth of the services, claims per group, idempotency keys in every
 * state, audit rows and per-minute stats rolled up to hours.
 */
export async function seedConsole(db: BenchDatabase, shape: ConsoleShape): Promise<string> {
  const { pool } = db;
  const historyServices = Math.max(1, Math.floor(shape.services / 10));
  await pool.query(
    `insert into services (id, display_name, history_depth) select 'svc-' || lpad(i::text, 3, '0'), 'Service ' || i, case when i < $2 then 5 else 0 end from generate_series(0, $1::int - 1) i`,
    [shape.services, historyServices],
  );
  await withIndexesDropped(pool, "last_seen", async () => {
    for (let s = 0; s < shape.services; s += 10) {
      await insertSpreadKeys(db, s, Math.min(shape.services, s + 10) - 1, shape.perService);
    }
  });
  // Small services too, so the list counts some keys exactly and estimates the rest (console-key-counts.ts).
  await pool.query(
    `insert into services (id, display_name, history_depth) select 'small-' || i, 'Small service ' || i, 0 from generate_series(0, $1::int - 1) i`,
    [SMALL_SERVICE_KEYS.length],
  );
  await pool.query(
    `insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
     select 'small-' || (s.i - 1), 'order-' || k, sha256(int8send(s.i * 1000000 + k)), 1, now(), now()
     from unnest($1::int[]) with ordinality as s(n, i), generate_series(0, s.n - 1) k`,
    [SMALL_SERVICE_KEYS],
  );
  await pool.query(
    `insert into payload_versions (service_id, message_id, version, hash, payload, recorded_at)
     select l.service_id, l.message_id, v, sha256(convert_to(l.message_id || v, 'UTF8')),
       format('{"id":"%s","status":"%s","amount":%s,"meta":{"sentAt":"2025-01-0%sT00:00:00Z"}}', l.message_id, case when v % 2 = 0 then 'paid' else 'open' end, 100 + v, v),
       l.last_changed - make_interval(hours => (l.version - v)::int)
     from last_seen l, generate_series(1, 3) v
     where l.service_id < $1 and l.version >= 3 and v <= l.version`,
    [svc(historyServices)],
  );
  await pool.query(`insert into consumer_groups (id, ttl_seconds) select 'group-' || i, 3600 from generate_series(0, $1::int - 1) i`, [shape.groups]);
  await withIndexesDropped(pool, "window_records", () =>
    pool
      .query(
        `insert into window_records (consumer_group, message_id, claimed_at, previous_claimed_at)
         select 'group-' || g, 'msg-' || k, now() - make_interval(secs => ((k::bigint * 7919) % 7200)::int),
           case when k % 50 = 0 then now() - interval '3 hours' end
         from generate_series(0, $1::int - 1) g, generate_series(0, $2::int - 1) k`,
        [shape.groups, shape.claimsPerGroup],
      )
      .then(() => undefined),
  );
  await pool.query(`insert into idempotency_scopes (id) select 'scope-' || i from generate_series(0, $1::int - 1) i`, [shape.scopes]);
  // 90 % completed, 5 % in progress, 5 % expired (completed, expires_at in the past).
  await withIndexesDropped(pool, "idempotency_keys", () =>
    pool
      .query(
        `insert into idempotency_keys (scope, key, request_hash, status, attempt, locked_until, response_status, response_body, created_at, completed_at, expires_at)
         select 'scope-' || s, 'req-' || k, sha256(convert_to('scope-' || s || '/req-' || k, 'UTF8')),
           case when k % 20 = 1 then 'in_progress' else 'completed' end, 1 + k % 3,
           case when k % 20 = 1 then now() + interval '60 seconds' end,
           case when k % 20 = 1 then null else 201 end, case when k % 20 = 1 then null else '{"ok":true}' end,
           now() - make_interval(secs => (k % 80000)), case when k % 20 = 1 then null else now() - make_interval(secs => (k % 80000)) + interval '1 second' end,
           case when k % 20 = 2 then now() - interval '1 minute' else now() + interval '1 day' end
         from generate_series(0, $1::int - 1) s, generate_series(0, $2::int - 1) k`,
        [shape.scopes, shape.keysPerScope],
      )
      .then(() => undefined),
  );
  await pool.query(
    `insert into audit_log (at, actor, actor_role, action, target, affected, reason)
     select now() - make_interval(mins => i), 'ops' || (i % 7) || '@example.com', 'operator',
       (array['reset.keys', 'group.ttl', 'service.update', 'idempotency.release'])[1 + i % 4], 'svc-' || lpad((i % 100)::text, 3, '0'), i % 500, 'bench'
     from generate_series(1, 20000) i`,
  );
  await withIndexesDropped(pool, "stats_minute", () =>
    pool
      .query(
        `insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
         select kind, subject, b, 100 + (h % 50), 10 + h % 7, 20 + h % 11, 70 + (h % 29), case when h % 97 = 0 then 1 else 0 end, case when kind = 'group' and h % 13 = 0 then 1 else 0 end
         from (select 'service' as kind, 'svc-' || lpad(i::text, 3, '0') as subject from generate_series(0, $1::int - 1) i
               union all select 'group', 'group-' || i from generate_series(0, $2::int - 1) i) subjects,
           generate_series(date_trunc('minute', now()) - make_interval(days => $3::int), date_trunc('minute', now()), interval '1 minute') b,
           lateral (select abs(hashtext(subject || b::text)) as h) x`,
        [shape.services, shape.groups, shape.statsDays],
      )
      .then(() => undefined),
  );
  await rollUpAllHours(db, 20);
  await seedJournal(pool, shape);
  await seedReset(pool);
  await pool.query("vacuum analyze");
  const { rows } = await pool.query<{ line: string }>(
    `select format('%s keys, %s payload versions, %s claims, %s idempotency keys, %s stats minutes',
       (select count(*) from last_seen), (select count(*) from payload_versions), (select count(*) from window_records),
       (select count(*) from idempotency_keys), (select count(*) from stats_minute)) || format(', %s journal entries', (select count(*) from journal)) as line`,
  );
  return rows[0]!.line;
}

/** Library-mode and token callers the journal's entries name; null is a caller that gave no name. */
const JOURNAL_CALLERS = ["orders-worker", "billing-consumer", "replay-job", "search-indexer", "mailer"];

/**
 * The decision journal over the last JOURNAL_HOURS at shape.journalPerHour, evenly spread over
 * time and (by a hash of the entry's number) over the subjects: 16 in 20 answers to the services
 * (60 % new, 10 % changed, 30 % duplicates of keys they hold), 3 in 20 claims of the groups, 1 in 20
 * idempotency begins; five callers and some with none. Written with the indexes in place: a
 * partitioned index cannot be dropped and rebuilt as one (withIndexesDropped).
 */
export async function seedJournal(pool: pg.Pool, shape: ConsoleShape): Promise<void> {
  const now = Date.now();
  const entries = shape.journalPerHour * JOURNAL_HOURS;
  const days = new Set<number>();
  for (let t = dayStart(now - JOURNAL_HOURS * 3_600_000); t <= now + 86_400_000; t += 86_400_000) days.add(t);
  // weir's own partitioning (names, bounds, replica identity), over the seeding pool.
  await createJournalPartitions(drizzle(pool, { schema }), [...days]);
  await pool.query(
    `insert into journal (at, mode, subject, key, decision, version, matched_at, hash_version, caller, request_id)
     select at, mode, subject, key,
       case mode when 'last_seen' then (array['new','new','new','new','new','new','changed','duplicate','duplicate','duplicate'])[1 + i % 10]
                 when 'window' then (array['new','new','duplicate','late'])[1 + i % 4]
                 else (array['started','started','completed','in_progress'])[1 + i % 4] end,
       case when mode = 'window' then null else 1 + i % 3 end,
       at - make_interval(secs => (i % 3600)), case when mode = 'last_seen' then 1 end,
       case when i % 9 = 0 then null else ($4::text[])[1 + (i / 7) % array_length($4::text[], 1)] end,
       'req-' || i
     from generate_series(0, $1::int - 1) i,
       lateral (select now() - make_interval(secs => i::float8 * $2 / $1) as at,
         case when i % 20 < 16 then 'last_seen' when i % 20 < 19 then 'window' else 'idempotency' end as mode) m,
       lateral (select (hashint4(i) & 2147483647) as h) x,
       lateral (select case mode when 'last_seen' then 'svc-' || lpad((h % $3)::text, 3, '0')
                                 when 'window' then 'group-' || (h % $5) else 'scope-' || (h % $6) end as subject,
                       case mode when 'last_seen' then 'order-' || ((i::bigint * 104729) % $7)
                                 when 'window' then 'msg-' || ((i::bigint * 7919) % $8) else 'req-' || ((i::bigint * 13) % $9) end as key) s`,
    [entries, JOURNAL_HOURS * 3600, shape.services, JOURNAL_CALLERS, shape.groups, shape.scopes, shape.perService, shape.claimsPerGroup, shape.keysPerScope],
  );
  await pool.query("analyze journal");
  await catchUpJournalAnswers(pool);
}

/** weir's own rollup of the journal's answers per quarter hour, caught up as a running node's upkeep (every 10 minutes) keeps it. */
export async function catchUpJournalAnswers(pool: pg.Pool): Promise<void> {
  const db = drizzle(pool, { schema });
  for (let before: number | undefined, i = 0; i < 10; i++) {
    const until = (await rollUpJournalAnswers(db, dayStart(Date.now() - JOURNAL_HOURS * 3_600_000)))?.getTime();
    if (until === before) break;
    before = until;
  }
}

/** The service the seeded reset took keys from (one the key browser also reads: 1 % of its keys go). */
const RESET_SERVICE = svc(90);

/**
 * One finished reset, through weir's own verbs: the keys of RESET_SERVICE starting `order-99`
 * (1,111 at 100,000 keys a service), so that the reset page has rows it can undo. Answers its id.
 */
export async function seedReset(pool: pg.Pool): Promise<number> {
  const db = drizzle(pool, { schema });
  const operator = { id: "bench-admin@example.com", role: "admin" as const };
  const selection = { kind: "last_seen" as const, subject: RESET_SERVICE, mode: "filter" as const, prefix: "order-99" };
  const started = await startReset({ db, actor: operator, input: { selection, reason: "bench: a replay of order-99*", confirmation: RESET_SERVICE } });
  await runReset(db, started.id);
  return started.id;
}
