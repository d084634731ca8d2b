/**
 * Structural hash throughput against JSON.parse + canonicalize / safe-stable-stringify,
 * from request text to hex digest, on deterministic event-like payloads.
 * Ratios are of hashes per CPU-second of this process (wall-clock ops/s shown too): on a shared
 * box a wall-clock slice also counts the time spent waiting for a core.
 * Run: npx tsx bench/structural-hash.ts [--quick]. Never fails on timing.
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import stableStringify from "safe-stable-stringify";
import { compilePathFilter } from "../lib/dedup/canonical/path-filter";
import { structuralHash } from "../lib/dedup/canonical/structural-hash";
import { RECOMMENDED_NORMALISE } from "../lib/services/hash-settings";
import { seededRandom } from "../lib/seeded-random";
import { report, type Row } from "./lib/report";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 11;
const ROUND_MS = quick ? 150 : 400;
const WARMUP_MS = quick ? 300 : 1500;

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

// What a new service hashes with: the recommended normalisations (the payload has nulls and empty arrays).
const normalised = compilePathFilter({ ignoredPaths: [], includedPaths: [], normalise: RECOMMENDED_NORMALISE });

const contenders: { name: string; run: (text: string) => string }[] = [
  { name: "weir structuralHash", run: (text) => structuralHash(text).hash },
  { name: "weir structuralHash, normalised", run: (text) => structuralHash(text, { filter: normalised }).hash },
  { name: "JSON.parse+canonicalize", run: (text) => sha256(canonicalize(JSON.parse(text)) ?? "") },
  { name: "JSON.parse+safe-stable-stringify", run: (text) => sha256(stableStringify(JSON.parse(text)) ?? "") },
];


const WORDS = ["alpha", "Bravo", "café", "Zürich", "naïve", "東京", "señal", "data", "ÆØÅ", "ok", "line", "🚚"];

function generatePayload(targetBytes: number, seed: number): string {
  const rnd = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const item = (i: number) => ({
    sku: `SKU-${100000 + Math.floor(rnd() * 900000)}`,
    lineNo: i + 1,
    quantity: 1 + Math.floor(rnd() * 20),
    unitPrice: Math.round(rnd() * 100000) / 100,
    description: words(3 + Math.floor(rnd() * 6)),
    taxable: rnd() < 0.7,
    discount: rnd() < 0.2 ? { code: `PROMO${Math.floor(rnd() * 99)}`, percent: Math.floor(rnd() * 30) } : null,
    tags: Array.from({ length: Math.floor(rnd() * 4) }, () => pick(WORDS)),
  });
  const event = {
    eventType: "order.updated",
    eventId: `evt_${Math.floor(rnd() * 1e12).toString(36)}`,
    occurredAt: "2024-05-17T09:21:44.123Z",
    version: 7,
    customer: {
      id: `cus_${Math.floor(rnd() * 1e9)}`,
      name: "Zoë Ångström",
      email: "zoe@example.com",
      address: { street: "Großstraße 12", city: "Zürich", zip: "8001", country: "CH", geo: { lat: 47.3769, lon: 8.5417 } },
      vip: false,
    },
    meta: { source: "adapter-2", traceId: "0af7651916cd43dd8448eb211c80319c", retries: 0, note: "line1\nline2 \"quoted\"" },
    items: [] as ReturnType<typeof item>[],
    totals: { net: 0, tax: 0, currency: "EUR" },
  };
  while (JSON.stringify(event).length < targetBytes) event.items.push(item(event.items.length));
  return JSON.stringify(event);
}

interface Rate {
  /** Hashes per wall-clock second. */
  wall: number;
  /** Hashes per CPU-second of the process (user + system, all its threads). */
  cpu: number;
}

function measure(run: (text: string) => string, text: string, ms: number): Rate {
  let ops = 0;
  let sink = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let k = 0; k < 16; k++) sink += run(text).length;
    ops += 16;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpuBefore);
  if (sink === 0) throw new Error("unreachable: keeps the result alive");
  return { wall: (ops * 1000) / (now - start), cpu: (ops * 1e6) / Math.max(1, cpu.user + cpu.system) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function format(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(1);
}

const rows: string[][] = [];
const summary: Row[] = [];
const normalisedLines: string[] = [];
for (const [label, size] of [["1 KB", 1024], ["10 KB", 10 * 1024], ["100 KB", 100 * 1024]] as const) {
  const text = generatePayload(size, 42 + size);
  const reference = contenders.map((c) => c.run(text));
  if (new Set(reference.map((r) => r.length)).size !== 1) throw new Error("a contender returned a non-digest");
  for (const c of contenders) measure(c.run, text, WARMUP_MS / contenders.length);
  const samples: Rate[][] = contenders.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved so drift (thermal, GC, neighbours) hits every contender alike.
    contenders.forEach((c, i) => samples[i]!.push(measure(c.run, text, ROUND_MS)));
  }
  const ops = samples.map((s) => median(s.map((r) => r.cpu)));
  const wall = samples.map((s) => median(s.map((r) => r.wall)));
  const ours = ops[0]!;
  contenders.forEach((c, i) => {
    const mbps = (ops[i]! * Buffer.byteLength(text)) / 1e6;
    rows.push([`${label} (${text.length} chars)`, c.name, format(wall[i]!), format(ops[i]!), mbps.toFixed(1), i <= 1 ? "-" : (ours / ops[i]!).toFixed(2) + "x"]);
    if (i === 0) return;
    if (i === 1) {
      // The cost of normalisation, as a ratio to the plain hash in the same run.
      const met = label !== "1 KB" || ops[1]! >= 0.9 * ours;
      summary.push({ metric: `${label} normalised vs plain`, unit: "hashes/CPU-s", ours: ops[1]!, baseline: ours, ratio: ops[1]! / ours, target: label === "1 KB" ? ">= 0.9x" : "-", met });
      normalisedLines.push(`  ${label.padEnd(6)} ${(ops[1]! / ours).toFixed(2)}x per CPU-second, ${(wall[1]! / wall[0]!).toFixed(2)}x per wall-clock second`);
      return;
    }
    const need = i === 2 ? 2 : 1;
    summary.push({ metric: `${label} vs ${c.name}`, unit: "hashes/CPU-s", ours, baseline: ops[i]!, ratio: ours / ops[i]!, target: `>= ${need}x`, met: ours >= need * ops[i]! });
  });
}

const header = ["payload", "implementation", "ops/s (median)", "ops/CPU-s (median)", "MB/CPU-s", "ours / this"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
console.log(`node ${process.version}, ${ROUNDS} rounds x ${ROUND_MS} ms, median${quick ? " (quick)" : ""}`);
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log("\nnormalised (recommended set) / plain hash, same run:");
for (const l of normalisedLines) console.log(l);
report("3. structural hash, request text to digest", summary, ["weir's hash is exact on number text; neither baseline is (both parse numbers as doubles)", "ratios per CPU-second of this process; wall-clock ops/s in the table above"]);
