"use client";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Rectangle, Tooltip, XAxis, YAxis, type BarShapeProps } from "recharts";
import { formatBucket as bucketLabel } from "@/lib/console/format";
import type { SeriesPoint } from "@/lib/console/series";

const COLORS = { new: "#15803d", changed: "#2563eb", duplicates: "#d97706", spike: "#b91c1c", errors: "#6b21a8", late: "#0f766e" };

/** Duplicates bars turn red in spike buckets (more than twice the range's median). */
function DuplicateBar(props: BarShapeProps) {
  const spike = (props.payload as SeriesPoint | undefined)?.spike === true;
  return <Rectangle {...props} fill={spike ? COLORS.spike : COLORS.duplicates} />;
}

/**
 * Decisions per bucket from the stats rollup: new, changed and duplicates
 * stacked (their sum is the checks), errors and late redeliveries as lines.
 */
export function DecisionsChart({ points, stepSeconds, height = 300 }: { points: SeriesPoint[]; stepSeconds: number; height?: number }) {
  return (
    <div data-testid="decisions-chart">
      <ComposedChart responsive data={points} width="100%" height={height} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="t" tickFormatter={(t: number) => bucketLabel(t, stepSeconds)} minTickGap={24} fontSize={12} />
        <YAxis allowDecimals={false} fontSize={12} width={56} />
        <Tooltip labelFormatter={(t) => `${bucketLabel(Number(t), stepSeconds)} UTC`} />
        <Legend />
        <Bar dataKey="new" name="New" stackId="d" fill={COLORS.new} isAnimationActive={false} />
        <Bar dataKey="changed" name="Changed" stackId="d" fill={COLORS.changed} isAnimationActive={false} />
        <Bar dataKey="duplicates" name="Duplicates" stackId="d" fill={COLORS.duplicates} shape={DuplicateBar} isAnimationActive={false} />
        <Line dataKey="errors" name="Errors" stroke={COLORS.errors} dot={false} isAnimationActive={false} />
        <Line dataKey="lateRedeliveries" name="Late redeliveries" stroke={COLORS.late} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </div>
  );
}
