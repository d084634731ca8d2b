import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from "react";

const CONTROLS = new Set(["input", "select", "textarea"]);

const isNamedControl = (element: ReactElement) => typeof element.type !== "string" && typeof (element.props as { name?: unknown }).name === "string";

/**
 * A labelled form control with the errors the server gave for it. The label names the control
 * alone; the errors describe it (aria-describedby) and mark it aria-invalid, so a screen reader
 * says what is wrong when it gets focus.
 */
export function Field({ label, errors, children, hint }: { label: ReactNode; errors?: string[]; children: ReactNode; hint?: ReactNode }) {
  const invalid = Boolean(errors?.length);
  const base = `field${useId().replace(/:/g, "")}`;
  const messages = invalid ? (
    <small id={`${base}-error`} className="error" data-testid="field-error">
      {errors!.join(" ")}
    </small>
  ) : null;
  const hintNode = hint ? (
    <small id={`${base}-hint`} className="muted">
      {hint}
    </small>
  ) : null;
  // A composite control (an input with its unit select) is labelled by wrapping, as before; a
  // component that stands for one named control (an instant input) takes the id like an input.
  if (!isValidElement(children) || !(CONTROLS.has(children.type as string) || isNamedControl(children))) {
    return (
      <label className="field">
        <span>{label}</span>
        {children}
        {hintNode}
        {messages}
      </label>
    );
  }
  const props = children.props as { id?: string };
  const id = props.id ?? base;
  const describedBy = [hint ? `${base}-hint` : null, invalid ? `${base}-error` : null].filter(Boolean).join(" ") || undefined;
  const control = cloneElement(children as ReactElement<Record<string, unknown>>, {
    id,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy,
  });
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      {hintNode}
      {messages}
    </div>
  );
}
