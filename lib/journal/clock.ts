let last = 0;

/**
 * Microseconds since the epoch, strictly increasing in this process: two entries of one node
 * never share a time, so (time, key) pages through a subject's entries without skipping one.
 */
export function nowMicros(): number {
  const now = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  last = now > last ? now : last + 1;
  return last;
}
