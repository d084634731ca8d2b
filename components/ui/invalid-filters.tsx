/** Instead of a list when a filter was refused: nothing was looked up, so nothing is claimed about what exists. */
export function InvalidFilters({ what }: { what: string }) {
  return (
    <div className="panel callout callout-danger" role="alert" data-testid="invalid-filters">
      <strong>No {what} listed: a filter above is not valid.</strong>
      <p className="muted small">Correct the marked field and apply again, or clear the filters.</p>
    </div>
  );
}
