"use client";
import Link from "next/link";
import { bucketHref, type BucketLink } from "@/lib/views/bucket-link";
import { TREND_MIN_MS, type Finding } from "@/lib/views/findings";
import { useTimeZone } from "@/components/ui/time-zone";
import { formatBucket as bucketLabel, formatCount, formatDuration, formatPercent } from "@/lib/views/format";
import { zoneName } from "@/lib/views/time-zone";

const SHOWN = 8;

function Spikes({ spikes, stepSeconds, link }: { spikes: Finding[]; stepSeconds: number; link: BucketLink | null }) {
  const zone = useTimeZone();
  if (spikes.length === 0) return <p className="muted small" data-testid="spikes">No duplicate spikes in this range.</p>;
  return (
    <p className="small" data-testid="spikes">
      <span className="spike">
        {spikes.length} duplicate spike{spikes.length === 1 ? "" : "s"}
      </span>{" "}
      (a short burst far above the usual bucket), biggest first:{" "}
      {spikes.slice(0, SHOWN).map((f, i) => {
        const text = `${bucketLabel(f.peak, stepSeconds, zone)} (${formatCount(f.peakDuplicates)})`;
        return (
          <span key={f.from}>
            {i > 0 ? ", " : ""}
            {link ? <Link href={bucketHref(link, f.peak, stepSeconds)}>{text}</Link> : text}
          </span>
        );
      })}
      {spikes.length > SHOWN ? ", …" : ""} {zoneName(zone, spikes[0]!.peak)}
    </p>
  );
}

function Trends({ trends, stepSeconds, link }: { trends: Finding[]; stepSeconds: number; link: BucketLink | null }) {
  const zone = useTimeZone();
  if (trends.length === 0) return <p className="muted small" data-testid="trends">No sustained rise (trend) in this range.</p>;
  return (
    <div className="small" data-testid="trends">
      <span className="trend-label">
        {trends.length} duplicate trend{trends.length === 1 ? "" : "s"}
      </span>{" "}
      (a rise that lasts {TREND_MIN_MS / 3_600_000} h or more, one finding however many buckets):
      <ul>
        {trends.slice(0, SHOWN).map((f) => {
          const span = `${bucketLabel(f.from, stepSeconds, zone)} – ${bucketLabel(f.to, stepSeconds, zone)} ${zoneName(zone, f.from)}`;
          return (
            <li key={f.from}>
              {link ? <Link href={bucketHref(link, f.from, (f.to - f.from) / 1000)}>{span}</Link> : span} ({formatDuration((f.to - f.from) / 1000)}):{" "}
              {formatCount(f.duplicates)} duplicates of {formatCount(f.checks)} checks ({formatPercent(f.duplicates, f.checks)}), peak{" "}
              {formatCount(f.peakDuplicates)} at {bucketLabel(f.peak, stepSeconds, zone)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * The spikes and trends in words, next to the charts: readable without colour and without hovering,
 * and (for one service or group) each a link to what happened then. A rise over hours is one trend,
 * never a row of spikes (lib/views/findings.ts).
 */
export function FindingsList({ findings, stepSeconds, link }: { findings: Finding[]; stepSeconds: number; link: BucketLink | null }) {
  return (
    <div data-testid="findings">
      <Trends trends={findings.filter((f) => f.kind === "trend")} stepSeconds={stepSeconds} link={link} />
      <Spikes spikes={findings.filter((f) => f.kind === "spike")} stepSeconds={stepSeconds} link={link} />
    </div>
  );
}
