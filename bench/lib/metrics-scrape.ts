/** One sample of weir's /api/metrics (Prometheus text format). */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^(\w+)(?:\{([^}]*)\})? (\S+)$/;
const LABEL = /(\w+)="([^"]*)"/g;

/** Every sample line of one scrape; comments and blank lines are skipped. */
export async function scrapeMetrics(url: string, token: string): Promise<MetricSample[]> {
  const text = await (await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const samples: MetricSample[] = [];
  for (const line of text.split("\n")) {
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? "").matchAll(LABEL)].map(([, key, value]) => [key!, value!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of a sample with these labels (and any others), NaN when there is none. */
export function sampleValue(samples: readonly MetricSample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  return found?.value ?? Number.NaN;
}
