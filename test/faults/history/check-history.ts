import { formatOp, type Operation } from "./history";
import { checkOperations, type CheckResult, type Model } from "./linearizability";

export interface KeyReport {
  key: string;
  model: string;
  result: CheckResult;
}

export interface HistoryReport {
  ok: boolean;
  keys: KeyReport[];
  operations: { total: number; ok: number; fail: number; unknown: number };
  /** Human-readable offending sub-histories, one per key that failed. */
  failures: string[];
}

/**
 * Splits a history per key (linearizability is compositional: a history is
 * linearizable iff each object's sub-history is) and checks each against its
 * mode's model. An operation on several keys (a TTL change applies to every key
 * of its group) is part of each of their sub-histories.
 */
export function checkHistory(ops: readonly Operation[], modelFor: (key: string) => Model<any>, budgetPerKey?: number): HistoryReport {
  const byKey = new Map<string, Operation[]>();
  for (const op of ops) {
    for (const key of op.keys) {
      const list = byKey.get(key);
      if (list) list.push(op);
      else byKey.set(key, [op]);
    }
  }
  const keys: KeyReport[] = [];
  const failures: string[] = [];
  const origin = Math.min(...ops.map((op) => op.invoke));
  for (const [key, sub] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
    const model = modelFor(key);
    const result = checkOperations(model, key, sub, budgetPerKey);
    keys.push({ key, model: model.name, result });
    if (!result.ok) failures.push(describeFailure(key, model.name, result, origin));
  }
  const count = (status: Operation["status"]) => ops.filter((op) => op.status === status).length;
  return {
    ok: failures.length === 0,
    keys,
    operations: { total: ops.length, ok: count("ok"), fail: count("fail"), unknown: count("unknown") },
    failures,
  };
}

function describeFailure(key: string, model: string, result: CheckResult, origin: number): string {
  if (!result.decided) return `${key} (${model}): undecided after exploring ${result.explored} states; the history is too ambiguous to check`;
  const { linearized, stuckAt, pending, states } = result.failure!;
  const lines = [
    `${key} (${model}): not linearizable. Times in ms from the start of the run.`,
    `  longest linearizable prefix: ${linearized.length} operations, ending with:`,
    ...linearized.slice(-12).map((op) => `    ${formatOp(op, origin)}`),
    `  possible states after it: ${states.join(" | ")}`,
    `  no pending operation can be linearized before this one returns:`,
    `    ${formatOp(stuckAt, origin)}`,
    `  pending at that point (${pending.length}):`,
    ...pending.slice(0, 30).map((op) => `    ${formatOp(op, origin)}`),
  ];
  return lines.join("\n");
}
