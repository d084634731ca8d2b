import type { Metadata } from "next";
import { getConsoleActor } from "@/lib/auth/console-actor";
import { authEnv } from "@/lib/auth/auth-env";
import { safeNextPath } from "@/lib/auth/safe-next";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

type Search = Promise<{ next?: string; reauth?: string }>;

export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const { next, reauth } = await searchParams;
  const current = await getConsoleActor().catch(() => null);
  const confirming = reauth === "1" && current !== null;
  const nextPath = safeNextPath(next);
  return (
    <main id="main" tabIndex={-1} style={{ maxWidth: 380, margin: "4rem auto", padding: "1.5rem", background: "var(--panel)", border: "1px solid var(--line)" }}>
      <h1 style={{ marginTop: 0 }}>{confirming ? "Confirm it's you" : "Sign in to weir"}</h1>
      {confirming ? <p>This change needs a sign-in from the last 15 minutes. Enter your password again to continue.</p> : null}
      <SignInForm next={nextPath} email={confirming ? current.id : undefined} />
      {authEnv().demo ? (
        <p>
          Demo mode: <a href={`/api/auth/demo?next=${encodeURIComponent(nextPath)}`}>continue as the demo admin</a>.
        </p>
      ) : null}
    </main>
  );
}
