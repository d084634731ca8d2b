"use client";
import { useRouter } from "next/navigation";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Rectangle, Tooltip, XAxis, YAxis, type BarShapeProps, type TooltipContentProps } from "recharts";
import { formatBucket as bucketLabel, formatCount, formatPercent } from "@/lib/views/format";
import { bucketHref, type BucketLink } from "@/lib/views/bucket-link";
import type { SeriesPoint } from "@/lib/views/series";

const COLORS = { new: "#15803d", changed: "#2563eb", duplicates: "#d97706", spike: "#b91c1c", errors: "#6b21a8", late: "#0f766e" };

/** Duplicates bars turn red in spike buckets (see spikeThreshold). */
function DuplicateBar(props: BarShapeProps) {
  const spike = (props.payload as SeriesPoint | undefined)?.spike === true;
  return <Rectangle {...props} fill={spike ? COLORS.spike : COLORS.duplicates} />;
}

function BucketTooltip({ active, payload, stepSeconds, clickable }: TooltipContentProps & { stepSeconds: number; clickable: boolean }) {
  const point = payload?.[0]?.payload as SeriesPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className="panel small chart-tooltip" data-testid="chart-tooltip">
      <strong>{bucketLabel(point.t, stepSeconds)} UTC</strong>
      <div>
        {formatCount(point.checks)} checks · {formatPercent(point.duplicates, point.checks)} duplicates{point.spike ? " (spike)" : ""}
      </div>
      <div className="muted">
        {formatCount(point.new)} new · {formatCount(point.changed)} changed · {formatCount(point.duplicates)} duplicates
      </div>
      <div className="muted">
        {formatCount(point.errors)} errors · {formatCount(point.lateRedeliveries)} late redeliveries
      </div>
      {clickable ? <div>Click to open the decisions of this bucket.</div> : null}
    </div>
  );
}

/**
 * Decisions per bucket from the stats rollup: new, changed and duplicates
 * stacked (their sum is the checks, left axis), errors and late redeliveries
 * as lines on their own right axis. With `link`, a click on a bucket opens
 * that bucket's decisions (lib/views/bucket-link.ts).
 */
export function DecisionsChart({
  points,
  stepSeconds,
  link = null,
  height = 300,
}: {
  points: SeriesPoint[];
  stepSeconds: number;
  link?: BucketLink | null;
  height?: number;
}) {
  const router = useRouter();
  const minutes = stepSeconds / 60;
  // A click on any bar of a bucket opens that bucket.
  const open = (item: { payload?: SeriesPoint }) => {
    if (link && item.payload) router.push(bucketHref(link, item.payload.t, stepSeconds));
  };
  const unit = minutes >= 60 ? `${minutes / 60} h` : `${minutes} min`;
  return (
    <div data-testid="decisions-chart" className={link ? "chart-clickable" : undefined}>
      <ComposedChart
        responsive
        data={points}
        width="100%"
        height={height}
        margin={{ top: 8, right: 8, bottom: 0, left: 8 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="t" tickFormatter={(t: number) => bucketLabel(t, stepSeconds)} minTickGap={24} fontSize={12} />
        <YAxis
          yAxisId="checks"
          allowDecimals={false}
          fontSize={12}
          width={64}
          label={{ value: `checks per ${unit}`, angle: -90, position: "insideLeft", style: { textAnchor: "middle" }, fontSize: 12 }}
        />
        <YAxis
          yAxisId="errors"
          orientation="right"
          allowDecimals={false}
          fontSize={12}
          width={56}
          label={{ value: `errors, late per ${unit}`, angle: 90, position: "insideRight", style: { textAnchor: "middle" }, fontSize: 12 }}
        />
        <Tooltip content={(props) => <BucketTooltip {...props} stepSeconds={stepSeconds} clickable={link !== null} />} />
        <Legend />
        <Bar yAxisId="checks" onClick={open} dataKey="new" name="New" stackId="d" fill={COLORS.new} isAnimationActive={false} />
        <Bar yAxisId="checks" onClick={open} dataKey="changed" name="Changed" stackId="d" fill={COLORS.changed} isAnimationActive={false} />
        <Bar yAxisId="checks" onClick={open} dataKey="duplicates" name="Duplicates" stackId="d" fill={COLORS.duplicates} shape={DuplicateBar} isAnimationActive={false} />
        <Line yAxisId="errors" dataKey="errors" name="Errors" stroke={COLORS.errors} dot={false} isAnimationActive={false} />
        <Line yAxisId="errors" dataKey="lateRedeliveries" name="Late redeliveries" stroke={COLORS.late} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </div>
  );
}
