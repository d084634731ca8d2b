/** Shown instead of a page's data when the store cannot be reached; the console itself stays up. */
export function StoreUnavailableBanner() {
  return (
    <div className="banner banner-danger" role="alert" data-testid="store-banner">
      The dedup store is unreachable. Checks are failing closed (503) and the console cannot read or change state until it is back.
    </div>
  );
}

export function StoreUnavailableNotice() {
  return (
    <div className="panel callout callout-danger" role="alert">
      <strong>No data: the dedup store is unreachable.</strong>
      <p className="muted small">Nothing was changed. This page loads again once the database answers; reload to retry.</p>
    </div>
  );
}
