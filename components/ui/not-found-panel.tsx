import Link from "next/link";
import type { ReactNode } from "react";

/** The body of every 404 the console answers: what may have happened and where what exists is listed. */
export function NotFoundPanel({ children, missing }: { children: ReactNode; missing?: ReactNode }) {
  return (
    <section className="panel" data-testid="not-found">
      <h1>Not found</h1>
      {missing}
      <p>{children}</p>
      <ul>
        <li>
          <Link href="/">Overview</Link>
        </li>
        <li>
          <Link href="/services">All services</Link>
        </li>
        <li>
          <Link href="/groups">All consumer groups</Link>
        </li>
        <li>
          <Link href="/idempotency">Idempotency keys</Link>
        </li>
        <li>
          <Link href="/reset">Resets</Link>
        </li>
      </ul>
      <p className="small muted">Or look an id up with the search box at the top of every page.</p>
    </section>
  );
}
