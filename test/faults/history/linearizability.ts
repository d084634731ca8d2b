import type { Operation } from "./history";

/**
 * A sequential specification. `step` returns every state the object may be in
 * after `op` takes effect in `state` with the output the history recorded
 * (nondeterministic models return several; none means "not here"). For an
 * operation of unknown outcome the output is unconstrained; a model returns
 * only the states where it has an effect, because "no effect" is the same as
 * taking effect after everything else, which the checker always allows.
 * `horizon` bounds when the operation takes effect here: before the earliest
 * completion of an operation not yet linearized (it is ordered before that one).
 */
export interface Model<S> {
  name: string;
  init(key: string): S;
  step(state: S, op: Operation, horizon: number): S[];
  hash(state: S): string;
  describe(state: S): string;
  /** Unknown operations of one class have the same effect (symmetry: only the earliest is tried). */
  classOf(op: Operation): string;
  /**
   * `a` allows everything `b` allows, now and after any operation (steps keep
   * the relation). A search that failed from `a` need not try `b`. Defaults to
   * equality of hashes.
   */
  dominates?(a: S, b: S): boolean;
}

export interface CheckResult {
  ok: boolean;
  /** False when the search budget ran out before an answer. */
  decided: boolean;
  ops: number;
  explored: number;
  /** On failure: the deepest linearization found and the operations around where it got stuck. */
  failure?: { linearized: Operation[]; stuckAt: Operation; pending: Operation[]; states: string[] };
}

interface Entry {
  op: number;
  isCall: boolean;
  time: number;
  match: Entry | undefined;
  prev: Entry | undefined;
  next: Entry | undefined;
}

function buildList(ops: readonly Operation[]): Entry {
  const events: Entry[] = [];
  ops.forEach((op, i) => {
    const call: Entry = { op: i, isCall: true, time: op.invoke, match: undefined, prev: undefined, next: undefined };
    const ret: Entry = { op: i, isCall: false, time: op.complete, match: undefined, prev: undefined, next: undefined };
    call.match = ret;
    events.push(call, ret);
  });
  // Calls before returns at equal times: operations that touch in time count as concurrent (the weaker claim).
  events.sort((a, b) => a.time - b.time || (a.isCall === b.isCall ? a.op - b.op : a.isCall ? -1 : 1));
  const head: Entry = { op: -1, isCall: false, time: -Infinity, match: undefined, prev: undefined, next: undefined };
  let last = head;
  for (const entry of events) {
    last.next = entry;
    entry.prev = last;
    last = entry;
  }
  return head;
}

function lift(entry: Entry): void {
  entry.prev!.next = entry.next;
  if (entry.next) entry.next.prev = entry.prev;
  const match = entry.match!;
  match.prev!.next = match.next;
  if (match.next) match.next.prev = match.prev;
}

function unlift(entry: Entry): void {
  const match = entry.match!;
  match.prev!.next = match;
  if (match.next) match.next.prev = match;
  entry.prev!.next = entry;
  if (entry.next) entry.next.prev = entry;
}

/** 64-bit Zobrist keys: the set of linearized operations hashes incrementally. */
function zobrist(n: number): Uint32Array {
  const keys = new Uint32Array(2 * n);
  let seed = 0x9e3779b9;
  for (let i = 0; i < keys.length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    keys[i] = seed >>> 0;
  }
  return keys;
}

/**
 * Wing & Gong's search with Lowe's memoisation, as porcupine does it (a
 * configuration is skipped when one that dominates it already failed): the
 * candidates at each point are the calls that precede the first pending
 * return; linearize one if the model accepts it, backtrack when none is left.
 * States are sets (for nondeterministic models). Operations with a known
 * outcome are tried before unknown ones, and of unknown ones with the same
 * effect only the earliest (they are interchangeable, and the earliest can go
 * wherever a later one can), so that unknown outcomes are only brought in
 * when an answer needs them. Succeeds once every operation with a known
 * outcome is linearized; unknown ones left over take effect after everything.
 */
export function checkOperations<S>(model: Model<S>, key: string, ops: readonly Operation[], budget = 20_000_000): CheckResult {
  const usable = ops.filter((op) => op.status !== "fail");
  const n = usable.length;
  const head = buildList(usable);
  const keys = zobrist(n);
  let h1 = 0;
  let h2 = 0;
  let known = usable.filter((op) => op.status === "ok").length;
  // Per set of linearized operations, the state sets already explored from there (all failed).
  const cache = new Map<string, S[][]>();
  const dominates = model.dominates ?? ((a: S, b: S) => model.hash(a) === model.hash(b));
  const covered = (seen: S[][], next: S[]) => seen.some((explored) => next.every((b) => explored.some((a) => dominates(a, b))));
  const classOf = usable.map((op) => (op.status === "unknown" ? model.classOf(op) : ""));
  let explored = 0;

  const step = (set: S[], op: Operation, horizon: number): S[] => {
    const out = new Map<string, S>();
    for (const s of set) for (const next of model.step(s, op, horizon)) out.set(model.hash(next), next);
    return [...out.values()];
  };

  interface Frame {
    candidates: Entry[];
    next: number;
    states: S[];
    /** The call linearized to reach this frame (undone when the frame is exhausted). */
    via: Entry | undefined;
    /** The first pending return: no candidate of this frame can be linearized after it. */
    stuck: Entry | undefined;
  }

  const frameAt = (states: S[], via: Entry | undefined): Frame => {
    const knownCalls: Entry[] = [];
    const unknownCalls: Entry[] = [];
    const seenClasses = new Set<string>();
    let entry = head.next;
    while (entry && entry.isCall) {
      const op = usable[entry.op]!;
      if (op.status === "ok") knownCalls.push(entry);
      else if (!seenClasses.has(classOf[entry.op]!)) {
        seenClasses.add(classOf[entry.op]!);
        unknownCalls.push(entry);
      }
      entry = entry.next;
    }
    return { candidates: [...knownCalls, ...unknownCalls], next: 0, states, via, stuck: entry };
  };

  const stack: Frame[] = [frameAt([model.init(key)], undefined)];
  let best: { depth: number; order: number[]; stuck: number; states: S[] } | undefined;

  while (known > 0) {
    const frame = stack.at(-1);
    if (!frame) {
      const order = best!.order;
      const done = new Set(order);
      const stuck = usable[best!.stuck]!;
      const pending = usable.filter((op, i) => !done.has(i) && op.invoke <= stuck.complete);
      return {
        ok: false,
        decided: true,
        ops: n,
        explored,
        failure: { linearized: order.map((i) => usable[i]!), stuckAt: stuck, pending, states: best!.states.map((s) => model.describe(s)) },
      };
    }
    if (++explored > budget) return { ok: false, decided: false, ops: n, explored };
    const entry = frame.candidates[frame.next++];
    if (!entry) {
      if (frame.stuck && (!best || stack.length > best.depth)) {
        best = { depth: stack.length, order: stack.flatMap((f) => (f.via ? [f.via.op] : [])), stuck: frame.stuck.op, states: frame.states };
      }
      stack.pop();
      const via = frame.via;
      if (via) {
        h1 = (h1 ^ keys[2 * via.op]!) >>> 0;
        h2 = (h2 ^ keys[2 * via.op + 1]!) >>> 0;
        if (usable[via.op]!.status === "ok") known++;
        unlift(via);
      }
      continue;
    }
    const op = usable[entry.op]!;
    const next = step(frame.states, op, frame.stuck?.time ?? Infinity);
    if (next.length === 0) continue;
    const n1 = (h1 ^ keys[2 * entry.op]!) >>> 0;
    const n2 = (h2 ^ keys[2 * entry.op + 1]!) >>> 0;
    const memo = `${n1}.${n2}`;
    const seen = cache.get(memo);
    if (seen && covered(seen, next)) continue;
    if (seen) seen.push(next);
    else cache.set(memo, [next]);
    h1 = n1;
    h2 = n2;
    if (op.status === "ok") known--;
    lift(entry);
    stack.push(frameAt(next, entry));
  }
  return { ok: true, decided: true, ops: n, explored };
}
