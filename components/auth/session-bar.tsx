import Link from "next/link";
import { signOut } from "@/lib/actions/auth";
import { getConsoleActor } from "@/lib/auth/console-actor";
import { authEnv } from "@/lib/auth/auth-env";
import { DEMO_ADMIN_EMAIL } from "@/lib/auth/demo-constants";

/**
 * Who is signed in, with their Account page and sign-out; in demo mode it says that the demo admin
 * was signed in automatically. Renders nothing when signed out (sign-in page)
 * or when the store is down (the console shows its own banner then).
 */
export async function SessionBar() {
  const actor = await getConsoleActor().catch(() => null);
  if (!actor) return null;
  const demo = authEnv().demo && actor.id === DEMO_ADMIN_EMAIL;
  return (
    <section
      aria-label="Session"
      data-testid="session-bar"
      style={{ display: "flex", flexWrap: "wrap", gap: "0.4rem 0.75rem", alignItems: "center", justifyContent: "flex-end", padding: "0.35rem 1rem", borderBottom: "1px solid var(--line)", background: "var(--panel)", fontSize: "0.85rem" }}
    >
      {demo ? <strong data-testid="demo-notice">Demo: you were signed in automatically as the demo admin.</strong> : null}
      <span>
        Signed in as <strong>{actor.id}</strong> ({actor.role})
      </span>
      <Link href="/account">Account</Link>
      <form action={signOut}>
        <button type="submit">Sign out</button>
      </form>
    </section>
  );
}
