import Link from "next/link";
import { bucketHref, type BucketLink } from "@/lib/views/bucket-link";
import { formatBucket as bucketLabel, formatCount } from "@/lib/views/format";
import type { SeriesPoint } from "@/lib/views/series";

/**
 * The spike buckets in words, biggest first, next to the chart: readable without colour and without
 * hovering, and (for one service or group) each a link to what happened in that bucket.
 */
export function SpikeList({ points, stepSeconds, threshold, link }: { points: SeriesPoint[]; stepSeconds: number; threshold: number; link: BucketLink | null }) {
  const spikes = points.filter((p) => p.spike).sort((a, b) => b.duplicates - a.duplicates || b.t - a.t);
  if (spikes.length === 0) return <p className="muted small" data-testid="spikes">No duplicate spikes in this range.</p>;
  return (
    <p className="small" data-testid="spikes">
      <span className="spike">
        {spikes.length} duplicate spike{spikes.length === 1 ? "" : "s"}
      </span>{" "}
      (more than {formatCount(Math.floor(threshold))} duplicates in a bucket, well above the usual busy bucket), biggest first:{" "}
      {spikes.slice(0, 8).map((p, i) => {
        const text = `${bucketLabel(p.t, stepSeconds)} (${formatCount(p.duplicates)})`;
        return (
          <span key={p.t}>
            {i > 0 ? ", " : ""}
            {link ? <Link href={bucketHref(link, p.t, stepSeconds)}>{text}</Link> : text}
          </span>
        );
      })}
      {spikes.length > 8 ? ", …" : ""} UTC
    </p>
  );
}
