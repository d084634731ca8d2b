import Form from "next/form";
import Link from "next/link";
import { cookies } from "next/headers";
import { ConsoleNav } from "./console-nav";
import { parseTheme, THEME_COOKIE } from "./theme";
import { ThemeToggle } from "./theme-toggle";
import { TimeZoneToggle } from "./time-zone";

/**
 * Brand, the lookup box (exact ids across every service, group and scope), the time zone and colour
 * scheme switches, and the navigation: one line from 1280 px, behind a menu button at phone width.
 */
export async function ConsoleHeader() {
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        weir
      </Link>
      <ConsoleNav extra={[{ href: "/tokens", label: "API tokens" }]} />
      <Form action="/find" className="lookup" role="search" aria-label="Find an id">
        <label htmlFor="lookup-q" className="visually-hidden">
          Look up an exact id: a message, claim or idempotency key
        </label>
        <input id="lookup-q" name="q" type="search" placeholder="Find an exact id…" maxLength={512} required />
        <button type="submit">Find</button>
      </Form>
      <div className="switches">
        <TimeZoneToggle />
        <ThemeToggle initial={theme} />
      </div>
    </header>
  );
}
