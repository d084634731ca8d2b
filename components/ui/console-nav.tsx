"use client";
import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { useRef, useState, type KeyboardEvent } from "react";

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

/**
 * The console's pages. Below 1024 px they sit behind a menu button (aria-expanded); the menu closes
 * on navigation and on Escape, which gives the focus back to the button.
 */
export function ConsoleNav({ extra = [] }: { extra?: { href: string; label: string }[] }) {
  const pathname = usePathname();
  // The menu is open on the page it was opened on: any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null);
  const button = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <nav className="nav" aria-label="Console" onKeyDown={onKeyDown}>
      <button ref={button} type="button" className="nav-toggle" aria-expanded={open} aria-controls="console-pages" onClick={() => setOpen(!open)}>
        <span aria-hidden="true">☰</span> Menu
      </button>
      <ul id="console-pages" className="nav-links" data-open={open}>
        {[...LINKS, ...extra].map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={isActive(pathname, link.href) ? "page" : undefined} onClick={() => setOpen(false)}>
              {link.label}
              <Pending />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
