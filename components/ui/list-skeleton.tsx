/** Loading state of a list page: the shape of what is coming, announced to screen readers. */
export function ListSkeleton({ label, rows = 8 }: { label: string; rows?: number }) {
  return (
    <div aria-busy="true" aria-live="polite" data-testid="loading">
      <p className="muted">{label}</p>
      <div className="skeleton" style={{ height: 32, width: "40%", marginBottom: 16 }} />
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height: 22, marginBottom: 8 }} />
      ))}
    </div>
  );
}
