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
    <div className="panel callout callout-danger" role="alert" data-testid="store-notice">
      <strong>No data: the dedup store is unreachable.</strong>
      <p className="muted small">Nothing was changed. weir checks the store every few seconds and this page loads by itself once it answers.</p>
    </div>
  );
}
