"use client";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { Bar, CartesianGrid, ComposedChart, Line, Rectangle, ReferenceArea, Tooltip, XAxis, YAxis, type BarShapeProps, type TooltipContentProps } from "recharts";
import { zoneName } from "@/lib/views/time-zone";
import { useTimeZone } from "@/components/ui/time-zone";
import { formatBucket as bucketLabel, formatCount, formatPercent } from "@/lib/views/format";
import { bucketHref, type BucketLink } from "@/lib/views/bucket-link";
import type { Finding } from "@/lib/views/findings";
import type { SeriesPoint } from "@/lib/views/series";
import { fromSeriesColumns, type SeriesColumns } from "@/lib/views/series-columns";
import { CHART_COLORS as COLORS } from "./chart-colors";
import { BrowserOnly } from "./browser-only";
import { ChartLegend } from "./chart-legend";

/** Duplicates bars turn red in spike buckets (lib/views/findings.ts). */
function DuplicateBar(props: BarShapeProps) {
  const spike = (props.payload as SeriesPoint | undefined)?.spike === true;
  return <Rectangle {...props} fill={spike ? COLORS.spike : COLORS.duplicates} />;
}

function BucketTooltip({ active, payload, stepSeconds, clickable }: TooltipContentProps & { stepSeconds: number; clickable: boolean }) {
  const zone = useTimeZone();
  const point = payload?.[0]?.payload as SeriesPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className="panel small chart-tooltip" data-testid="chart-tooltip">
      <strong>
        {bucketLabel(point.t, stepSeconds, zone)} {zoneName(zone, point.t)}
      </strong>
      <div>
        {formatCount(point.checks)} checks · {formatPercent(point.duplicates, point.checks)} duplicates{point.spike ? " (spike)" : ""}
        {point.trend ? " (trend)" : ""}
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
  series,
  findings = [],
  stepSeconds,
  link = null,
  height = 300,
}: {
  /** The series in columns (lib/views/series-columns.ts): what the server sends. */
  series: SeriesColumns;
  findings?: Finding[];
  stepSeconds: number;
  link?: BucketLink | null;
  height?: number;
}) {
  const points = useMemo(() => fromSeriesColumns(series), [series]);
  const zone = useTimeZone();
  const router = useRouter();
  const minutes = stepSeconds / 60;
  // A click on any bar of a bucket opens that bucket.
  const open = (item: { payload?: SeriesPoint }) => {
    if (link && item.payload) router.push(bucketHref(link, item.payload.t, stepSeconds));
  };
  const unit = minutes >= 60 ? `${minutes / 60} h` : `${minutes} min`;
  return (
    <div data-testid="decisions-chart" className={link ? "chart-clickable" : undefined}>
      <BrowserOnly height={height}>
        <ComposedChart
          responsive
          data={points}
          width="100%"
          height={height}
          margin={{ top: 8, right: 8, bottom: 0, left: 8 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="t" tickFormatter={(t: number) => bucketLabel(t, stepSeconds, zone)} minTickGap={24} fontSize={12} />
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
          {findings
            .filter((f) => f.kind === "trend")
            .map((f) => (
              <ReferenceArea key={f.from} yAxisId="checks" x1={f.from} x2={f.to - stepSeconds * 1000} fill={COLORS.trend} fillOpacity={0.18} stroke={COLORS.trend} strokeOpacity={0.5} />
            ))}
          <Bar yAxisId="checks" onClick={open} dataKey="new" name="New" stackId="d" fill={COLORS.new} isAnimationActive={false} />
          <Bar yAxisId="checks" onClick={open} dataKey="changed" name="Changed" stackId="d" fill={COLORS.changed} isAnimationActive={false} />
          <Bar yAxisId="checks" onClick={open} dataKey="duplicates" name="Duplicates" stackId="d" fill={COLORS.duplicates} shape={DuplicateBar} isAnimationActive={false} />
          <Line yAxisId="errors" dataKey="errors" name="Errors" stroke={COLORS.errors} dot={false} isAnimationActive={false} />
          <Line yAxisId="errors" dataKey="lateRedeliveries" name="Late redeliveries" stroke={COLORS.late} dot={false} isAnimationActive={false} />
        </ComposedChart>
      </BrowserOnly>
      <ChartLegend
        label="Decisions chart legend"
        items={[
          { mark: "bar", color: COLORS.new, label: "New", meaning: "first check of a key" },
          { mark: "bar", color: COLORS.changed, label: "Changed", meaning: "a new version of a key" },
          { mark: "bar", color: COLORS.duplicates, label: "Duplicates", meaning: "the same payload again (window and idempotency repeats too)" },
          { mark: "bar", color: COLORS.spike, label: "Duplicates in a spike", meaning: "a short burst far above the usual bucket" },
          { mark: "band", color: COLORS.trend, label: "Trend", meaning: "a sustained rise, shaded over its buckets" },
          { mark: "line", color: COLORS.errors, label: "Errors", meaning: "checks that failed (right axis)" },
          { mark: "line", color: COLORS.late, label: "Late redeliveries", meaning: "claims after their window had expired (right axis)" },
        ]}
      />
    </div>
  );
}
