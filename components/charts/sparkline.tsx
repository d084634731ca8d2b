export const SPARKLINE_SIZE = { width: 96, height: 24 } as const;

/**
 * The drawing of a sparkline of shares (0..1) per step: one SVG path per run of steps with traffic
 * ("M x,y L x,y ..."), a lone point as "M x,y"; gaps where there was no traffic. Pure, so a server
 * component can compute it and send the few bytes of paths instead of the values.
 */
export function sparklineSegments(values: (number | null)[], { width, height }: { width: number; height: number } = SPARKLINE_SIZE): string[] {
  const max = Math.max(0.01, ...values.map((v) => v ?? 0));
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const segments: string[] = [];
  let current = "";
  values.forEach((v, i) => {
    if (v === null) {
      if (current) segments.push(current);
      current = "";
      return;
    }
    const point = `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`;
    current = current ? `${current} L${point}` : `M${point}`;
  });
  if (current) segments.push(current);
  return segments;
}

/** A tiny line drawn from sparklineSegments(); described in words for screen readers. */
export function Sparkline({ segments, label, width = SPARKLINE_SIZE.width, height = SPARKLINE_SIZE.height }: { segments: string[]; label: string; width?: number; height?: number }) {
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="sparkline">
      <line x1={0} x2={width} y1={height - 1} y2={height - 1} stroke="var(--line)" />
      {segments.map((d) => (d.includes("L") ? <path key={d} d={d} fill="none" stroke="#d97706" strokeWidth={1.5} /> : <circle key={d} cx={d.slice(1).split(",")[0]} cy={d.split(",")[1]} r={1.5} fill="#d97706" />))}
    </svg>
  );
}
