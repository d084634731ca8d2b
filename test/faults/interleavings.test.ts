import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { begin } from "@/lib/dedup/idempotency/begin";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { serviceConfigs } from "@/lib/services/service-config";
import { adminDb, registerService } from "./fixtures";
import { PrivatePostgres } from "./private-postgres";
import { Session, heldTransaction, settleOrBlock, track } from "./sessions";

/**
 * Postgres isolation-test style: two sessions with explicit transactions run
 * every interleaving of [BEGIN, operation, COMMIT | ROLLBACK] on one fresh key,
 * and each interleaving must give exactly what the specification says:
 *
 * - an operation that its snapshot answers without writing (duplicate,
 *   in_progress) answers at once, whatever the other session holds;
 * - one that must write blocks while the other session holds an uncommitted
 *   write of the key, and is then decided on what that session left: its
 *   write if it committed, the state before it if it rolled back.
 *
 * Interleavings where a blocked session would have to finish first cannot run
 * (as in the isolation tester) and are counted as skipped.
 */
type State = string;
interface Decision {
  result: string;
  /** The state this operation writes (uncommitted until its session commits); absent if it writes nothing. */
  writes?: State;
}
interface Mode {
  name: string;
  initial: State;
  setup(key: string): Promise<void>;
  run(session: Session, index: 0 | 1, key: string): Promise<string>;
  decide(state: State, index: 0 | 1): Decision;
  read(key: string): Promise<State>;
}

let cluster: PrivatePostgres;
let admin: ReturnType<typeof adminDb>;
let observer: pg.Client;
const sessions: Session[] = [];
const SERVICE = "interleave-svc";
const GROUP = "interleave-grp";
const SCOPE = "interleave-scope";
const HASH = "ab".repeat(32);

beforeAll(async () => {
  cluster = await PrivatePostgres.create();
  const url = await cluster.createDatabase("weir_interleavings");
  admin = adminDb(url);
  await registerService(admin.db, SERVICE);
  await setGroupTtl(admin.db, { consumerGroup: GROUP, ttlSeconds: 3600, graceSeconds: null, reason: "test", actor: { id: "t", role: "admin" } });
  observer = new pg.Client({ connectionString: url });
  await observer.connect();
  sessions.push(await Session.open(url, "s1"), await Session.open(url, "s2"));
  // Service settings are cached per process; load them outside the transactions under test.
  await serviceConfigs.require(admin.db, SERVICE);
});

afterAll(async () => {
  for (const s of sessions) await s.close();
  await observer?.end();
  await admin?.close();
  await cluster?.destroy();
});

const rows = async <T>(query: ReturnType<typeof sql>) => (await admin.db.execute(query)).rows as T[];
const payloadOf = (letter: string) => ({ value: letter, nested: { same: true } });

/** Last-seen checks; the state is "absent" or "<payload>@<version>". */
function lastSeenMode(name: string, initial: State, payloads: [string, string]): Mode {
  return {
    name,
    initial,
    async setup(key) {
      if (initial === "absent") return;
      const [letter] = initial.split("@");
      await check(admin.db, { serviceId: SERVICE, messageId: key, payload: payloadOf(letter!) });
    },
    async run(session, index, key) {
      const outcome = await check(session.db, { serviceId: SERVICE, messageId: key, payload: payloadOf(payloads[index]) });
      return `${outcome.decision} v${outcome.version}`;
    },
    decide(state, index) {
      const payload = payloads[index];
      if (state === "absent") return { result: "new v1", writes: `${payload}@1` };
      const [stored, version] = state.split("@");
      if (stored === payload) return { result: `duplicate v${version}` };
      const next = Number(version) + 1;
      return { result: `changed v${next}`, writes: `${payload}@${next}` };
    },
    async read(key) {
      const found = await rows<{ hash: string; version: number }>(
        sql`select encode(hash, 'hex') as hash, version::int from last_seen where service_id = ${SERVICE} and message_id = ${key}`,
      );
      if (found.length === 0) return "absent";
      const letter = ["A", "B", "S"].find((l) => hashOf(l) === found[0]!.hash) ?? "?";
      return `${letter}@${found[0]!.version}`;
    },
  };
}

const hashes = new Map<string, string>();
const hashOf = (letter: string) => hashes.get(letter);

/** Window claims of a group with a one-hour TTL; "expired" is a record claimed two hours ago. */
function claimMode(name: string, initial: "absent" | "expired"): Mode {
  return {
    name,
    initial,
    async setup(key) {
      if (initial === "absent") return;
      await admin.db.execute(
        sql`insert into window_records (consumer_group, message_id, claimed_at) values (${GROUP}, ${key}, now() - interval '2 hours')`,
      );
    },
    async run(session, _index, key) {
      const outcome = await claim(session.db, { consumerGroup: GROUP, messageId: key });
      return `${outcome.decision}${outcome.lateRedelivery ? " late" : ""}`;
    },
    decide(state) {
      if (state === "absent") return { result: "new", writes: "live" };
      if (state === "expired") return { result: "new late", writes: "live" };
      return { result: "duplicate" };
    },
    async read(key) {
      const found = await rows<{ live: boolean }>(
        sql`select claimed_at > now() - interval '1 hour' as live from window_records where consumer_group = ${GROUP} and message_id = ${key}`,
      );
      return found.length === 0 ? "absent" : found[0]!.live ? "live" : "expired";
    },
  };
}

const beginMode: Mode = {
  name: "idempotency begin of a new key",
  initial: "absent",
  setup: async () => undefined,
  async run(session, _index, key) {
    return (await begin(session.db, { scope: SCOPE, key, requestHash: HASH })).outcome;
  },
  decide: (state) => (state === "absent" ? { result: "started", writes: "in_progress" } : { result: "in_progress" }),
  async read(key) {
    const found = await rows<{ status: string }>(sql`select status from idempotency_keys where scope = ${SCOPE} and key = ${key}`);
    return found[0]?.status ?? "absent";
  },
};

const MODES: Mode[] = [
  lastSeenMode("first checks, same payload", "absent", ["S", "S"]),
  lastSeenMode("first checks, different payloads", "absent", ["A", "B"]),
  lastSeenMode("both change a stored key to the same payload", "A@1", ["B", "B"]),
  lastSeenMode("one changes a stored key, the other sends the stored payload", "A@1", ["B", "A"]),
  claimMode("first claims", "absent"),
  claimMode("claims of an expired record (late redelivery)", "expired"),
  beginMode,
];

type Step = { session: 0 | 1; kind: "begin" | "op" | "end" };
type End = "commit" | "rollback";

/** Every merge of the two sessions' [begin, op, end] sequences: C(6,3) = 20. */
function interleavings(): Step[][] {
  const out: Step[][] = [];
  const walk = (i: number, j: number, acc: Step[]) => {
    const kinds = ["begin", "op", "end"] as const;
    if (i === 3 && j === 3) return void out.push(acc);
    if (i < 3) walk(i + 1, j, [...acc, { session: 0, kind: kinds[i]! }]);
    if (j < 3) walk(i, j + 1, [...acc, { session: 1, kind: kinds[j]! }]);
  };
  walk(0, 0, []);
  return out;
}

interface Expected {
  trace: string[];
  final: State;
}

/** The specification, run on a schedule: the trace of answers and blocks, or null if it cannot run. */
function specify(mode: Mode, steps: Step[], ends: [End, End]): Expected | null {
  let committed = mode.initial;
  const uncommitted: (State | undefined)[] = [undefined, undefined];
  const blocked: boolean[] = [false, false];
  const trace: string[] = [];
  const decideFor = (s: 0 | 1) => {
    const decision = mode.decide(committed, s);
    uncommitted[s] = decision.writes;
    trace.push(`s${s + 1} ${decision.result}`);
  };
  for (const step of steps) {
    const s = step.session;
    const other = (1 - s) as 0 | 1;
    if (blocked[s]) return null;
    if (step.kind === "begin") continue;
    if (step.kind === "op") {
      const snapshot = mode.decide(committed, s);
      if (snapshot.writes !== undefined && uncommitted[other] !== undefined) {
        blocked[s] = true;
        trace.push(`s${s + 1} blocks`);
      } else decideFor(s);
      continue;
    }
    if (ends[s] === "commit" && uncommitted[s] !== undefined) committed = uncommitted[s]!;
    uncommitted[s] = undefined;
    trace.push(`s${s + 1} ${ends[s]}`);
    if (blocked[other]) {
      blocked[other] = false;
      decideFor(other);
    }
  }
  return { trace, final: committed };
}

async function execute(mode: Mode, steps: Step[], ends: [End, End], key: string): Promise<Expected> {
  const trace: string[] = [];
  const pending: (ReturnType<typeof track<string>> | undefined)[] = [undefined, undefined];
  const answer = (s: number) => {
    const p = pending[s]!;
    if (p.error) throw p.error;
    trace.push(`s${s + 1} ${p.value}`);
    pending[s] = undefined;
  };
  for (const step of steps) {
    const s = step.session;
    const session = sessions[s]!;
    if (step.kind === "begin") await session.begin();
    else if (step.kind === "op") {
      pending[s] = track(mode.run(session, s, key));
      if ((await settleOrBlock(observer, session.pid, pending[s]!)) === "blocked") trace.push(`s${s + 1} blocks`);
      else answer(s);
    } else {
      await (ends[s] === "commit" ? session.commit() : session.rollback());
      trace.push(`s${s + 1} ${ends[s]}`);
      const other = 1 - s;
      if (pending[other]) {
        await pending[other]!.promise.catch(() => undefined);
        answer(other);
      }
    }
  }
  return { trace, final: await mode.read(key) };
}

describe("two sessions, every interleaving of first checks, claims and begins", () => {
  it("learns the payload hashes", async () => {
    for (const letter of ["A", "B", "S"]) {
      const outcome = await check(admin.db, { serviceId: SERVICE, messageId: `hash-${letter}`, payload: payloadOf(letter) });
      hashes.set(letter, outcome.hash);
    }
    expect(new Set(hashes.values()).size).toBe(3);
  });

  for (const mode of MODES) {
    it(mode.name, async () => {
      let ran = 0;
      let skipped = 0;
      let blocks = 0;
      for (const ends of [["commit", "commit"], ["commit", "rollback"], ["rollback", "commit"], ["rollback", "rollback"]] as [End, End][]) {
        for (const steps of interleavings()) {
          const expected = specify(mode, steps, ends);
          if (!expected) {
            skipped++;
            continue;
          }
          const key = `k-${randomBytes(6).toString("hex")}`;
          await mode.setup(key);
          const label = `${steps.map((st) => `${st.kind === "end" ? ends[st.session] : st.kind}${st.session + 1}`).join(" ")}`;
          const actual = await execute(mode, steps, ends, key);
          expect({ schedule: label, ...actual }).toEqual({ schedule: label, ...expected });
          ran++;
          blocks += expected.trace.filter((t) => t.endsWith("blocks")).length;
        }
      }
      console.log(`[interleavings] ${mode.name}: ${ran} schedules run (${blocks} with a blocked session), ${skipped} impossible`);
      expect(ran).toBeGreaterThanOrEqual(50);
    });
  }
});

describe("what a transaction holds, the other sees only once it commits", () => {
  it("a TTL change in an open transaction applies to claims at once when it commits, not before", async () => {
    const [s1, s2] = sessions as [Session, Session];
    const group = `ttl-${randomBytes(4).toString("hex")}`;
    await setGroupTtl(admin.db, { consumerGroup: group, ttlSeconds: 3600, graceSeconds: null, reason: "t", actor: { id: "t", role: "admin" } });
    await admin.db.execute(sql`insert into window_records (consumer_group, message_id, claimed_at) values (${group}, 'm', now() - interval '10 seconds')`);
    const change = await heldTransaction(s1.db, async (tx) => {
      await setGroupTtl(tx, { consumerGroup: group, ttlSeconds: 5, graceSeconds: null, reason: "shorten", actor: { id: "t", role: "admin" } });
    });
    const before = track(claim(s2.db, { consumerGroup: group, messageId: "m" }));
    expect(await settleOrBlock(observer, s2.pid, before)).toBe("settled");
    expect(before.value).toMatchObject({ decision: "duplicate", ttlSeconds: 3600 });
    await change.commit();
    const after = await claim(s2.db, { consumerGroup: group, messageId: "m" });
    expect(after).toMatchObject({ decision: "new", ttlSeconds: 5 });
    expect(after.lateRedelivery!.lateBySeconds).toBeGreaterThanOrEqual(5);
  });

  it("a claim inside a business transaction that rolls back leaves no record (library mode)", async () => {
    const [s1] = sessions as [Session];
    const key = `lib-${randomBytes(4).toString("hex")}`;
    await s1.begin();
    expect((await claim(s1.db, { consumerGroup: GROUP, messageId: key })).decision).toBe("new");
    expect((await check(s1.db, { serviceId: SERVICE, messageId: key, payload: { a: 1 } })).decision).toBe("new");
    await s1.rollback();
    expect((await claim(admin.db, { consumerGroup: GROUP, messageId: key })).decision).toBe("new");
    expect((await check(admin.db, { serviceId: SERVICE, messageId: key, payload: { a: 1 } })).decision).toBe("new");
  });
});
