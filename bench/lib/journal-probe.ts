/**
 * What bench/journal.ts reads of the decision journal: its rows and bytes in the database, the
 * writer's counters from /api/metrics, and a replay storm of duplicates through the batch API.
 */
import type pg from "pg";
import { sleep } from "./cli";
import { sampleValue, scrapeMetrics } from "./metrics-scrape";
import { payloadText } from "./workload";

export interface JournalCounters {
  written: number;
  dropped: number;
  buffered: number;
}

/** The journal writer's counters of one weir process. */
export async function journalCounters(url: string, token: string): Promise<JournalCounters> {
  const samples = await scrapeMetrics(url, token);
  const value = (name: string) => sampleValue(samples, name) || 0;
  return { written: value("weir_journal_written_total"), dropped: value("weir_journal_dropped_total"), buffered: value("weir_journal_buffered") };
}

/**
 * Waits until the process has written (or dropped) `target` entries in all, polling every 100 ms;
 * the counter moves only once an append has committed. Returns the counters then, and when.
 */
export async function waitForWritten(url: string, token: string, target: number, timeoutMs = 60_000): Promise<JournalCounters & { at: number }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const counters = await journalCounters(url, token);
    const at = performance.now();
    if (counters.written + counters.dropped >= target || at > deadline) return { ...counters, at };
    await sleep(100);
  }
}

/** Rows the journal holds for one subject of a mode. */
export async function journalRows(pool: pg.Pool, mode: string, subject: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("select count(*)::text as n from journal where mode = $1 and subject = $2", [mode, subject]);
  return Number(rows[0]!.n);
}

export interface JournalDisk {
  entries: number;
  /** Heap, indexes (and TOAST) of every daily partition. */
  totalBytes: number;
  heapBytes: number;
  partitions: number;
}

/** What the journal's partitions take on disk, indexes included, and how many entries they hold. */
export async function journalDisk(pool: pg.Pool): Promise<JournalDisk> {
  await pool.query("vacuum analyze journal");
  const { rows } = await pool.query<{ total: string; heap: string; partitions: string }>(
    `select coalesce(sum(pg_total_relation_size(inhrelid)), 0)::text as total,
            coalesce(sum(pg_relation_size(inhrelid)), 0)::text as heap, count(*)::text as partitions
     from pg_inherits where inhparent = 'journal'::regclass`,
  );
  const { rows: counted } = await pool.query<{ n: string }>("select count(*)::text as n from journal");
  const row = rows[0]!;
  return { entries: Number(counted[0]!.n), totalBytes: Number(row.total), heapBytes: Number(row.heap), partitions: Number(row.partitions) };
}

export interface Storm {
  /** Decisions answered, and how many of them were duplicates. */
  answered: number;
  duplicates: number;
  seconds: number;
  /** performance.now() when the last answer arrived. */
  lastAnswerAt: number;
}

/**
 * A producer replaying `keys` already-seen messages (m-0..m-(keys-1) with their seeded payloads)
 * through POST /api/v1/check/batch, `perRequest` items a request on `connections` connections.
 */
export async function replayStorm(o: { url: string; token: string; serviceId: string; keys: number; perRequest: number; connections: number }): Promise<Storm> {
  const bodies: string[] = [];
  for (let from = 0; from < o.keys; from += o.perRequest) {
    const items: string[] = [];
    for (let k = from; k < Math.min(o.keys, from + o.perRequest); k++) items.push(`{"serviceId":"${o.serviceId}","messageId":"m-${k}","payload":${payloadText(k, 0)}}`);
    bodies.push(`{"items":[${items.join(",")}]}`);
  }
  const headers = { "content-type": "application/json", authorization: `Bearer ${o.token}` };
  let next = 0;
  let answered = 0;
  let duplicates = 0;
  let lastAnswerAt = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.connections }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const res = await fetch(`${o.url}/api/v1/check/batch`, { method: "POST", headers, body });
        if (!res.ok) throw new Error(`the storm's batch answered ${res.status}: ${await res.text()}`);
        const { results } = (await res.json()) as { results: { decision: string }[] };
        lastAnswerAt = performance.now();
        answered += results.length;
        duplicates += results.filter((r) => r.decision === "duplicate").length;
      }
    }),
  );
  return { answered, duplicates, seconds: (lastAnswerAt - started) / 1000, lastAnswerAt };
}
