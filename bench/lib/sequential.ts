import { percentile } from "./report";

export interface SequentialLatency {
  requests: number;
  p50: number;
  p99: number;
}

/**
 * Light load: one client, one request at a time, for `seconds`. Latency in ms
 * with sub-millisecond resolution (autocannon rounds to whole milliseconds,
 * which hides what a check costs a quiet service).
 */
export async function sequentialLatency(url: string, token: string | undefined, body: () => string, seconds: number): Promise<SequentialLatency> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    const res = await fetch(url, { method: "POST", headers, body: body() });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status} under light load`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
