/**
 * mulberry32: a small, seedable pseudo-random generator returning numbers in
 * [0, 1). Demo traffic, bench workloads and test fixtures use it to be
 * repeatable; nothing that needs unpredictability may.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
