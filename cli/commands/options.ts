import { InvalidArgumentError } from "commander";

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("must be a whole number, 0 or more");
  return n;
}

export function unitInterval(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("must be a number between 0 and 1");
  return n;
}

/** For repeatable options: `--service a --service b`, or `--service a,b`. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(",").map((v) => v.trim()).filter(Boolean)];
}

/** A grace period in seconds, or "ttl" (null): one TTL, as the group's settings store it. */
export function graceSeconds(value: string): number | null {
  return value.trim().toLowerCase() === "ttl" ? null : nonNegativeInt(value);
}
