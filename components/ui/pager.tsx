import Link from "next/link";

/** Keyset paging: back to the first page, or on after the last row shown. */
export function Pager({ firstHref, nextHref, isFirst }: { firstHref: string; nextHref: string | null; isFirst: boolean }) {
  if (isFirst && !nextHref) return null;
  return (
    <div className="pager">
      {!isFirst ? <Link href={firstHref}>« First page</Link> : null}
      {nextHref ? (
        <Link href={nextHref} className="button" data-testid="next-page">
          Next page »
        </Link>
      ) : (
        <span className="muted small">End of the list</span>
      )}
    </div>
  );
}

/** A URL with the given query, dropping empty values. */
export function hrefWith(path: string, query: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
