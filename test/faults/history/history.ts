/**
 * One operation of a recorded history. `complete` is Infinity when the outcome
 * is unknown (the request failed in a way that does not say whether the
 * database applied it: 503, a dropped connection, a timeout): such an operation
 * may take effect at any point after its invocation, or never.
 */
export type OpStatus = "ok" | "fail" | "unknown";

export type OpKind = "check" | "read" | "reset" | "claim" | "ttl" | "cleanup";

export interface CheckInput {
  payload: number;
}
export interface CheckOutput {
  decision: "new" | "changed" | "duplicate";
  version: number;
}
/** A read of a key's stored state; version 0 when the key has none. */
export interface ReadOutput {
  version: number;
  payload: number;
}
export interface ResetOutput {
  deleted: boolean;
}
export interface ClaimOutput {
  decision: "new" | "duplicate";
  ttlSeconds: number;
  lateBySeconds?: number;
}
export interface TtlInput {
  ttlSeconds: number;
}

export interface Operation {
  id: number;
  /** Logical client (a new one after every unknown outcome, as a crashed process is replaced). */
  client: number;
  node: string;
  /** The objects the operation touches: one key, or every key of a group for a TTL change. */
  keys: string[];
  kind: OpKind;
  input?: CheckInput | TtlInput;
  output?: CheckOutput | ReadOutput | ResetOutput | ClaimOutput;
  status: OpStatus;
  /** Milliseconds on the wall clock (the database shares this machine's clock). */
  invoke: number;
  complete: number;
  /** HTTP status or transport error, for reports. */
  note?: string;
}

/** Collects operations as a concurrent workload runs. */
export class HistoryRecorder {
  readonly ops: Operation[] = [];
  private nextId = 0;

  invoke(fields: Pick<Operation, "client" | "node" | "keys" | "kind" | "input">): Operation {
    const op: Operation = { id: this.nextId++, ...fields, status: "unknown", invoke: Date.now(), complete: Infinity };
    this.ops.push(op);
    return op;
  }

  ok(op: Operation, output: Operation["output"], note?: string): void {
    op.complete = Date.now();
    op.status = "ok";
    op.output = output;
    op.note = note;
  }

  fail(op: Operation, note: string): void {
    op.complete = Date.now();
    op.status = "fail";
    op.note = note;
  }

  unknown(op: Operation, note: string): void {
    op.status = "unknown";
    op.complete = Infinity;
    op.note = note;
  }
}

const time = (t: number, origin: number) => (Number.isFinite(t) ? `${(t - origin).toString().padStart(6)}` : "     ∞");

export function formatOp(op: Operation, origin: number): string {
  const input = op.input ? JSON.stringify(op.input) : "";
  const output = op.status === "ok" ? JSON.stringify(op.output) : op.status;
  return `#${op.id} [${time(op.invoke, origin)} .. ${time(op.complete, origin)}] c${op.client}@${op.node} ${op.kind}${input} ${op.keys.length === 1 ? op.keys[0] : `{${op.keys.length} keys}`} -> ${output}${op.note ? ` (${op.note})` : ""}`;
}
