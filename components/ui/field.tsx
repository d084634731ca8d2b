import type { ReactNode } from "react";

/** A labelled form control with the errors the server gave for it. */
export function Field({ label, errors, children, hint }: { label: string; errors?: string[]; children: ReactNode; hint?: ReactNode }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {hint ? <small className="muted">{hint}</small> : null}
      {errors?.map((message) => (
        <small key={message} className="error">
          {message}
        </small>
      ))}
    </label>
  );
}
