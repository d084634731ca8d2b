import Link from "next/link";

/** Keyset paging: back to the first page, back one page (before the first row shown), or on after the last row shown. */
export function Pager({
  firstHref,
  prevHref = null,
  nextHref,
  isFirst,
}: {
  firstHref: string;
  prevHref?: string | null;
  nextHref: string | null;
  isFirst: boolean;
}) {
  if (isFirst && !nextHref) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {!isFirst ? <Link href={firstHref}>« First page</Link> : null}
      {prevHref ? (
        <Link href={prevHref} className="button" data-testid="prev-page">
          ‹ Previous page
        </Link>
      ) : null}
      {nextHref ? (
        <Link href={nextHref} className="button" data-testid="next-page">
          Next page »
        </Link>
      ) : (
        <span className="muted small">End of the list</span>
      )}
    </nav>
  );
}

/** Numbered pages of a list read whole (pageSlice): First / Previous / Next over `hrefOf(n)`. */
export function PageNumberPager({ pageNumber, pages, hrefOf }: { pageNumber: number; pages: number; hrefOf: (n: number) => string }) {
  if (pages <= 1) return null;
  return (
    <Pager
      firstHref={hrefOf(1)}
      prevHref={pageNumber > 2 ? hrefOf(pageNumber - 1) : null}
      nextHref={pageNumber < pages ? hrefOf(pageNumber + 1) : null}
      isFirst={pageNumber === 1}
    />
  );
}

/** A URL with the given query, dropping empty values. */
export function hrefWith(path: string, query: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
