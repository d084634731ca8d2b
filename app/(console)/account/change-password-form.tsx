"use client";

import { useRef, useState, useTransition } from "react";
import { changePasswordAction } from "@/lib/actions/account";
import type { ActionFailure } from "@/lib/console/action-result";

const FIELDS = [
  { name: "currentPassword", label: "Current password", autoComplete: "current-password" },
  { name: "newPassword", label: "New password (12 characters or more)", autoComplete: "new-password" },
  { name: "confirmPassword", label: "New password again", autoComplete: "new-password" },
] as const;

export function ChangePasswordForm() {
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const [changed, setChanged] = useState(false);
  const [pending, startTransition] = useTransition();
  const form = useRef<HTMLFormElement>(null);
  const submit = (data: FormData) =>
    startTransition(async () => {
      const read = (name: string) => String(data.get(name) ?? "");
      const result = await changePasswordAction({ currentPassword: read("currentPassword"), newPassword: read("newPassword"), confirmPassword: read("confirmPassword") });
      setFailure(result.ok ? null : result);
      setChanged(result.ok);
      if (result.ok) form.current?.reset();
    });
  return (
    <form ref={form} action={submit} aria-label="Change password" className="panel" style={{ display: "grid", gap: "0.6rem", maxWidth: 420 }}>
      <h2>Change password</h2>
      {FIELDS.map((field) => {
        const errors = failure?.fieldErrors?.[field.name];
        return (
          <label key={field.name} className="field">
            <span>{field.label}</span>
            <input name={field.name} type="password" autoComplete={field.autoComplete} required maxLength={256} aria-invalid={errors ? true : undefined} />
            {errors ? <span className="error">{errors.join("; ")}</span> : null}
          </label>
        );
      })}
      <div>
        <button type="submit" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </button>
      </div>
      {failure && !failure.fieldErrors ? (
        <p role="alert" className="form-error">
          {failure.message}
        </p>
      ) : null}
      {changed ? (
        <p role="status" data-testid="password-changed">
          Password changed. Every other session of yours has been signed out; this one continues.
        </p>
      ) : null}
    </form>
  );
}
