"use client";

import { useActionState } from "react";
import { signIn, type SignInState } from "@/lib/actions/auth";

export function SignInForm({ next, email }: { next: string; email?: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, null);
  return (
    <form action={action} style={{ display: "grid", gap: "0.75rem" }}>
      <input type="hidden" name="next" value={next} />
      <label style={{ display: "grid", gap: "0.25rem" }}>
        Email
        <input name="email" type="email" autoComplete="username" required defaultValue={email ?? state?.email} readOnly={email !== undefined} />
      </label>
      <label style={{ display: "grid", gap: "0.25rem" }}>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
      {state ? (
        <p role="alert" style={{ color: "var(--danger)", margin: 0 }}>
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
