"use client";
import type { ReactNode } from "react";
import { Field } from "./field";

/**
 * The reason field and button of every audited console action (reset, undo,
 * TTL change, key release): the button stays disabled until a reason is given,
 * since the reason is what the audit log keeps. `children` are extra fields
 * shown between the two, such as a typed confirmation.
 */
export function ReasonedAction(props: {
  reason: string;
  onReason(reason: string): void;
  reasonErrors?: string[];
  /** The reason input's name; pages with two actions keep them apart. */
  inputName?: string;
  required?: boolean;
  tone: "primary" | "danger";
  /** Further reasons to hold the button back (nothing to change, confirmation missing). */
  blocked?: boolean;
  pending: boolean;
  label: string;
  pendingLabel: string;
  onConfirm(): void;
  children?: ReactNode;
}) {
  return (
    <div className="filters">
      <Field label="Reason (for the audit log)" errors={props.reasonErrors}>
        <input name={props.inputName ?? "reason"} value={props.reason} onChange={(e) => props.onReason(e.target.value)} size={48} required={props.required} />
      </Field>
      {props.children}
      <button
        type="button"
        className={props.tone}
        disabled={props.reason.trim() === "" || props.pending || props.blocked === true}
        onClick={props.onConfirm}
      >
        {props.pending ? props.pendingLabel : props.label}
      </button>
    </div>
  );
}
