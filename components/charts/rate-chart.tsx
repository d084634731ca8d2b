"use client";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { CartesianGrid, ComposedChart, Line, ReferenceArea, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { bucketHref, type BucketLink } from "@/lib/views/bucket-link";
import { TREND_MIN_MS, type Finding } from "@/lib/views/findings";
import { zoneName } from "@/lib/views/time-zone";
import { useTimeZone } from "@/components/ui/time-zone";
import { formatBucket as bucketLabel, formatCount } from "@/lib/views/format";
import type { SeriesPoint } from "@/lib/views/series";
import { fromSeriesColumns, type SeriesColumns } from "@/lib/views/series-columns";
import { CHART_COLORS as C } from "./chart-colors";
import { BrowserOnly } from "./browser-only";
import { ChartLegend } from "./chart-legend";

const pct = (rate: number | null) => (rate === null ? "–" : `${(100 * rate).toFixed(1)} %`);

function RateTooltip({ active, payload, stepSeconds, previousLabel, clickable }: TooltipContentProps & { stepSeconds: number; previousLabel: string; clickable: boolean }) {
  const zone = useTimeZone();
  const point = payload?.[0]?.payload as SeriesPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className="panel small chart-tooltip" data-testid="rate-tooltip">
      <strong>
        {bucketLabel(point.t, stepSeconds, zone)} {zoneName(zone, point.t)}
      </strong>
      <div>
        {pct(point.rate)} duplicates ({formatCount(point.duplicates)} of {formatCount(point.checks)} checks)
        {point.spike ? " · spike" : ""}
        {point.trend ? " · trend" : ""}
      </div>
      <div className="muted">
        {previousLabel}: {pct(point.previousRate)} of {formatCount(point.previousChecks)} checks
      </div>
      {clickable ? <div>Click to open the decisions of this bucket.</div> : null}
    </div>
  );
}

/** A red dot on the buckets of a spike; nothing elsewhere. */
function SpikeDot(props: { cx?: number; cy?: number; index?: number; payload?: SeriesPoint }) {
  if (!props.payload?.spike || props.cx === undefined || props.cy === undefined) return <g key={props.index} />;
  return <circle key={props.index} cx={props.cx} cy={props.cy} r={4.5} fill={C.spike} stroke="var(--panel)" strokeWidth={1} className="spike-dot" />;
}

/**
 * The duplicate rate per bucket (duplicates ÷ checks), the previous period's rate dashed under it,
 * spikes as red dots and trends as shaded bands (lib/views/findings.ts). A rate does not let one
 * burst flatten the rest of the range as counts do. With `link`, a click opens the bucket.
 */
export function RateChart({
  series,
  findings,
  stepSeconds,
  previousLabel,
  link = null,
  height = 260,
}: {
  /** The series in columns (lib/views/series-columns.ts): what the server sends. */
  series: SeriesColumns;
  findings: Finding[];
  stepSeconds: number;
  previousLabel: string;
  link?: BucketLink | null;
  height?: number;
}) {
  const points = useMemo(() => fromSeriesColumns(series), [series]);
  const zone = useTimeZone();
  const router = useRouter();
  const step = stepSeconds * 1000;
  const data = points.map((p) => ({ ...p, ratePct: p.rate === null ? null : 100 * p.rate, previousPct: p.previousRate === null ? null : 100 * p.previousRate }));
  const open = (state: { activeTooltipIndex?: unknown }) => {
    const point = typeof state.activeTooltipIndex === "number" ? points[state.activeTooltipIndex] : points[Number(state.activeTooltipIndex)];
    if (link && point) router.push(bucketHref(link, point.t, stepSeconds));
  };
  const trends = findings.filter((f) => f.kind === "trend");
  return (
    <div data-testid="rate-chart" className={link ? "chart-clickable" : undefined}>
      <BrowserOnly height={height}>
        <ComposedChart responsive data={data} width="100%" height={height} margin={{ top: 8, right: 8, bottom: 0, left: 8 }} onClick={open}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="t" tickFormatter={(t: number) => bucketLabel(t, stepSeconds, zone)} minTickGap={24} fontSize={12} />
          <YAxis
            fontSize={12}
            width={64}
            domain={[0, (max: number) => Math.min(100, Math.max(5, Math.ceil(max / 5) * 5))]}
            tickFormatter={(v: number) => `${v} %`}
            label={{ value: "duplicate rate", angle: -90, position: "insideLeft", style: { textAnchor: "middle" }, fontSize: 12 }}
          />
          {trends.map((f) => (
            <ReferenceArea key={f.from} x1={f.from} x2={f.to - step} fill={C.trend} fillOpacity={0.18} stroke={C.trend} strokeOpacity={0.5} ifOverflow="extendDomain" />
          ))}
          <Tooltip content={(props) => <RateTooltip {...props} stepSeconds={stepSeconds} previousLabel={previousLabel} clickable={link !== null} />} />
          <Line dataKey="previousPct" name={previousLabel} stroke={C.previous} strokeWidth={1.5} strokeDasharray="5 4" dot={false} isAnimationActive={false} />
          <Line dataKey="ratePct" name="Duplicate rate" stroke={C.duplicates} strokeWidth={2.5} dot={SpikeDot} activeDot={{ r: 4 }} isAnimationActive={false} />
        </ComposedChart>
      </BrowserOnly>
      <ChartLegend
        label="Duplicate rate chart legend"
        items={[
          { mark: "line", color: C.duplicates, label: "Duplicate rate", meaning: "duplicates ÷ checks in each bucket of this range" },
          { mark: "dashed", color: C.previous, label: previousLabel, meaning: "the same rate one range earlier, bucket for bucket" },
          { mark: "dot", color: C.spike, label: "Spike", meaning: "a short burst far above the usual rate or count" },
          { mark: "band", color: C.trend, label: "Trend", meaning: `a rise that lasts ${TREND_MIN_MS / 3_600_000} h or more: one finding, however many buckets` },
        ]}
      />
    </div>
  );
}
