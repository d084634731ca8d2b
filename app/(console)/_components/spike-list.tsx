import { formatBucket as bucketLabel, formatCount } from "@/lib/console/format";
import type { SeriesPoint } from "@/lib/console/series";

/** The spike buckets in words, next to the chart: readable without colour and without hovering. */
export function SpikeList({ points, stepSeconds, threshold }: { points: SeriesPoint[]; stepSeconds: number; threshold: number }) {
  const spikes = points.filter((p) => p.spike);
  if (spikes.length === 0) return <p className="muted small" data-testid="spikes">No duplicate spikes in this range.</p>;
  return (
    <p className="small" data-testid="spikes">
      <span className="spike">
        {spikes.length} duplicate spike{spikes.length === 1 ? "" : "s"}
      </span>{" "}
      (more than {formatCount(threshold)} per bucket, twice the median):{" "}
      {spikes
        .slice(-8)
        .map((p) => `${bucketLabel(p.t, stepSeconds)} (${formatCount(p.duplicates)})`)
        .join(", ")}
      {spikes.length > 8 ? ", …" : ""} UTC
    </p>
  );
}
