"use client";
import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/services", label: "Services & keys" },
  { href: "/incidents", label: "Incidents" },
  { href: "/sources", label: "Sources" },
  { href: "/reports", label: "Reports" },
  { href: "/explain", label: "Explain" },
  { href: "/reset", label: "Reset" },
  { href: "/erase", label: "Erase" },
  { href: "/groups", label: "Consumer groups" },
  { href: "/idempotency", label: "Idempotency keys" },
  { href: "/audit", label: "Audit log" },
  { href: "/users", label: "Users" },
];

const isActive = (pathname: string, href: string) => (href === "/" ? pathname === "/" : pathname.startsWith(href));

/** Pages render on the server without a loading boundary (so that a missing one answers 404): the link itself shows it is loading. */
function Pending() {
  const { pending } = useLinkStatus();
  return pending ? <span className="link-pending" role="status" aria-label="Loading" /> : null;
}

export function ConsoleNav({ extra = [] }: { extra?: { href: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Console">
      {[...LINKS, ...extra].map((link) => (
        <Link key={link.href} href={link.href} aria-current={isActive(pathname, link.href) ? "page" : undefined}>
          {link.label}
          <Pending />
        </Link>
      ))}
    </nav>
  );
}
