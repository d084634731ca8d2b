import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

/**
 * What notFound() shows inside the console (answered with HTTP 404): the navigation stays,
 * and the links lead to the lists where what exists can be found.
 */
export default function ConsoleNotFound() {
  return (
    <section className="panel" data-testid="not-found">
      <h1>Not found</h1>
      <p>
        No service, key, consumer group, idempotency key or reset matches this address. It may have been mistyped, reset, expired or
        never created: weir creates a service when it is registered and a consumer group with its first claim or TTL setting.
      </p>
      <ul>
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
