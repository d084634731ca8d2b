/** How a series is drawn, so the legend's swatch looks like the mark on the chart. */
export type LegendMark = "bar" | "line" | "dashed" | "dot" | "band";

export interface LegendItem {
  mark: LegendMark;
  color: string;
  label: string;
  /** What the colour means, in words. */
  meaning: string;
}

function Swatch({ mark, color }: { mark: LegendMark; color: string }) {
  return (
    <svg width={22} height={12} viewBox="0 0 22 12" aria-hidden="true" className="legend-swatch">
      {mark === "bar" ? <rect x={5} y={0} width={12} height={12} fill={color} /> : null}
      {mark === "line" ? <line x1={0} x2={22} y1={6} y2={6} stroke={color} strokeWidth={2.5} /> : null}
      {mark === "dashed" ? <line x1={0} x2={22} y1={6} y2={6} stroke={color} strokeWidth={2} strokeDasharray="4 3" /> : null}
      {mark === "dot" ? <circle cx={11} cy={6} r={4.5} fill={color} /> : null}
      {mark === "band" ? <rect x={0} y={0} width={22} height={12} fill={color} fillOpacity={0.25} stroke={color} strokeOpacity={0.6} /> : null}
    </svg>
  );
}

/** Every colour of a chart with what it means: the chart's own legend, readable without hovering. */
export function ChartLegend({ items, label }: { items: LegendItem[]; label: string }) {
  return (
    <ul className="chart-legend small" aria-label={label}>
      {items.map((item) => (
        <li key={item.label}>
          <Swatch mark={item.mark} color={item.color} /> <strong>{item.label}</strong>: {item.meaning}
        </li>
      ))}
    </ul>
  );
}
