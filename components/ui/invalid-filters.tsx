/**
 * Instead of a list when a filter was refused: nothing was looked up, so nothing is claimed about what exists.
 * `fields` names refused values that have no input on the page (a status tab, a page link), with why.
 */
export function InvalidFilters({ what, fields }: { what: string; fields?: Record<string, string[] | undefined> }) {
  const named = Object.entries(fields ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length));
  return (
    <div className="panel callout callout-danger" role="alert" data-testid="invalid-filters">
      <strong>No {what} listed: a filter above is not valid.</strong>
      {named.length > 0 ? (
        <ul className="small">
          {named.map(([field, errors]) => (
            <li key={field} data-testid="field-error" data-field={field}>
              <code>{field}</code>: {errors.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="muted small">Correct the marked field and apply again, or clear the filters.</p>
    </div>
  );
}
