import { formatCappedCount, type CappedCount } from "@/lib/views/capped-count";

/**
 * A list's total: exact up to the cap its query counted to, "10,000+" past it
 * (counting is a bounded index range scan, never a count over every row).
 */
export function ListTotal({ total, noun, plural = `${noun}s`, testId }: { total: CappedCount; noun: string; plural?: string; testId: string }) {
  const one = total.count === 1 && !total.capped;
  return (
    <p className="small muted" data-testid={testId}>
      {formatCappedCount(total)} {one ? noun : plural}
      {total.capped ? " (counting stops there)" : ""}
    </p>
  );
}
