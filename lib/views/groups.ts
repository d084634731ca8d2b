import { quietSubject, rolledSpans, statsBySubject, statsBySubjectBeside, type Counters } from "@/db/queries/console-stats";
import { findClaim, groupExists, groupWindows, listGroupIds, type GroupWindowRow } from "@/db/queries/console-groups";
import type { DbOrTx } from "@/db/types";
import { defaultTtlSeconds } from "@/lib/dedup/window/default-ttl";
import { findConsumerGroup, listTtlChanges } from "@/lib/dedup/window/groups";

export interface GroupSummary extends GroupWindowRow, Counters {
  /** Claims and duplicates of the 24 h before the last 24 h, which the list compares with. */
  previous: Pick<Counters, "checks" | "duplicates">;
}

export interface TtlChangeView {
  id: number;
  at: string;
  actor: string;
  reason: string | null;
  oldTtlSeconds: number;
  newTtlSeconds: number;
  created: boolean;
  expiredAtOnce: number;
  revived: number;
}

const ZERO: Counters = { checks: 0, new: 0, changed: 0, duplicates: 0, errors: 0, lateRedeliveries: 0 };
const DAY_MS = 86_400_000;

/** Every group with its window, its last 24 h of traffic (from the rollups) and its cleanup lag. */
export async function loadGroups(db: DbOrTx, now = Date.now()): Promise<{ defaultTtlSeconds: number; groups: GroupSummary[] }> {
  const since = new Date(Math.floor((now - DAY_MS) / 60_000) * 60_000);
  const [ids, rolled] = await Promise.all([listGroupIds(db), rolledSpans(db)]);
  const totals = await statsBySubjectBeside(db, { kind: "group", since, rolled }, new Date(since.getTime() - DAY_MS));
  const all = [...new Set([...ids, ...totals.filter((t) => t.inWindow).map((t) => t.subject)])].sort();
  const ttl = defaultTtlSeconds();
  const windows = await groupWindows(db, all, ttl);
  const byId = new Map(totals.map((t) => [t.subject, t]));
  return {
    defaultTtlSeconds: ttl,
    groups: windows.map((w) => {
      const { subject: _subject, inWindow: _inWindow, ...counters } = byId.get(w.id) ?? quietSubject(w.id);
      return { ...w, ...counters };
    }),
  };
}

/** One group: its window, traffic, lag and TTL history (newest first); null when no such group exists. */
export async function loadGroup(db: DbOrTx, id: string, { now = Date.now(), claimId }: { now?: number; claimId?: string } = {}) {
  // Without this a mistyped id would show a TTL editor whose save creates the group.
  if (!(await groupExists(db, id))) return null;
  const since = new Date(Math.floor((now - DAY_MS) / 60_000) * 60_000);
  const [[window], settings, totals, history, claim] = await Promise.all([
    groupWindows(db, [id], defaultTtlSeconds()),
    findConsumerGroup(db, id),
    rolledSpans(db).then((rolled) => statsBySubject(db, { kind: "group", subject: id, since, rolled })),
    listTtlChanges(db, id, { limit: 100 }),
    claimId ? findClaim(db, id, claimId) : Promise.resolve(undefined),
  ]);
  // The same window a claim would answer with: it started at the claim and ends one TTL later.
  const windowEndsAt = claim && new Date(claim.claimedAt.getTime() + window!.ttlSeconds * 1000);
  const claimView = claim
    ? {
        messageId: claim.messageId,
        claimedAt: claim.claimedAt.toISOString(),
        previousClaimedAt: claim.previousClaimedAt?.toISOString() ?? null,
        ref: claim.ref,
        windowStartedAt: claim.claimedAt.toISOString(),
        windowEndsAt: windowEndsAt!.toISOString(),
        inWindow: windowEndsAt!.getTime() > now,
      }
    : claim === null
      ? null
      : undefined;
  const { subject: _subject, ...counters } = totals[0] ?? { subject: id, ...ZERO };
  return {
    /** The claim asked for: undefined when none was asked for, null when it is not stored. */
    claim: claimView,
    group: { ...window!, slide: settings?.slide ?? false, ...counters },
    history: history.map(
      (c): TtlChangeView => ({
        id: c.id,
        at: c.at.toISOString(),
        actor: c.actor,
        reason: c.reason,
        oldTtlSeconds: c.oldTtlSeconds,
        newTtlSeconds: c.newTtlSeconds,
        created: c.created,
        expiredAtOnce: c.expiredAtOnce,
        revived: c.revived,
      }),
    ),
  };
}
