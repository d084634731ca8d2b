import autocannon from "autocannon";

export interface LoadOptions {
  url: string;
  path: string;
  /** A fresh body for every request. */
  body: () => string;
  token?: string;
  connections: number;
  seconds?: number;
  amount?: number;
  /** Requests per second over all connections (open-loop); unset: as fast as the server answers. */
  rate?: number;
  /** Ends the run early when this settles (the run then lasts until it does, at most `seconds`). */
  stopWhen?: Promise<unknown>;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
}

/** Drives one POST route with autocannon's programmatic API and returns req/s and latency percentiles (ms). */
export async function drive(o: LoadOptions): Promise<LoadResult> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  const instance = autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    amount: o.amount,
    overallRate: o.rate,
    timeout: 10,
    requests: [{ method: "POST", path: o.path, headers, setupRequest: (request) => ({ ...request, body: o.body() }) }],
  });
  o.stopWhen?.then(
    () => instance.stop(),
    () => instance.stop(),
  );
  const result = await instance;
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = Number(stat.count);
  const total = result.requests.total;
  return {
    requests: total,
    seconds: result.duration,
    rps: total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses,
  };
}

export function describeLoad(r: LoadResult): string {
  return `${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors`;
}

/** A POST from the bench process itself (set-up and sanity checks). */
export async function post<T>(url: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}
