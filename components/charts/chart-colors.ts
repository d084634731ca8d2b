/** The console charts' colours: one meaning each, named in every chart's legend. */
export const CHART_COLORS = {
  new: "#15803d",
  changed: "#2563eb",
  duplicates: "#d97706",
  previous: "#6b7280",
  spike: "#b91c1c",
  trend: "#ea580c",
  errors: "#6b21a8",
  late: "#0f766e",
} as const;
