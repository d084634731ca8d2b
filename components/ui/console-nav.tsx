"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/services", label: "Services & keys" },
  { href: "/explain", label: "Explain" },
  { href: "/reset", label: "Reset" },
  { href: "/groups", label: "Consumer groups" },
  { href: "/idempotency", label: "Idempotency keys" },
  { href: "/audit", label: "Audit log" },
];

const isActive = (pathname: string, href: string) => (href === "/" ? pathname === "/" : pathname.startsWith(href));

export function ConsoleNav({ extra = [] }: { extra?: { href: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Console">
      {[...LINKS, ...extra].map((link) => (
        <Link key={link.href} href={link.href} aria-current={isActive(pathname, link.href) ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
