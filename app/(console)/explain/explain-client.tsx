"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { FailureMessage } from "@/components/ui/failure-message";
import { explainAction } from "@/lib/actions/explain";
import { useFollowFailure } from "@/lib/console/client-failure";
import { ExplanationView } from "./explanation-view";

export function ExplainClient({ initialServiceId, initialMessageId }: { initialServiceId: string; initialMessageId: string }) {
  const followFailure = useFollowFailure();
  const [serviceId, setServiceId] = useState(initialServiceId);
  const [messageId, setMessageId] = useState(initialMessageId);
  const [payload, setPayload] = useState("");
  const explain = useMutation({
    mutationFn: explainAction,
    onSuccess: (result) => {
      if (!result.ok) followFailure(result);
    },
  });
  const result = explain.data;
  const failure = result && !result.ok ? result : null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    explain.mutate({ serviceId, messageId, payload });
  };
  return (
    <>
      <form className="panel" onSubmit={onSubmit} aria-label="Explain">
        <div className="filters">
          <Field label="Service id" errors={failure?.fieldErrors?.serviceId}>
            <input name="serviceId" value={serviceId} onChange={(e) => setServiceId(e.target.value)} required />
          </Field>
          <Field label="Message id" errors={failure?.fieldErrors?.messageId}>
            <input name="messageId" value={messageId} onChange={(e) => setMessageId(e.target.value)} required size={32} />
          </Field>
        </div>
        <Field label="Payload (JSON)" errors={failure?.fieldErrors?.payload}>
          <textarea name="payload" rows={10} value={payload} onChange={(e) => setPayload(e.target.value)} spellCheck={false} required />
        </Field>
        <div className="actions" style={{ marginTop: "0.75rem" }}>
          <button type="submit" className="primary" disabled={explain.isPending}>
            {explain.isPending ? "Explaining…" : "Explain"}
          </button>
          <span className="muted small">Read only: the stored state is not changed.</span>
        </div>
        <FailureMessage failure={failure} />
      </form>
      {result?.ok ? <ExplanationView explanation={result.data} /> : null}
    </>
  );
}
