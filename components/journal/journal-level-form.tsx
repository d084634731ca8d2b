"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { FailureMessage } from "@/components/ui/failure-message";
import { ReasonedAction } from "@/components/ui/reasoned-action";
import { setJournalLevelAction } from "@/lib/actions/journal";
import { useFollowFailure } from "@/lib/console/client-failure";
import { LEVEL_LABEL, type JournalKind } from "@/lib/views/journal-format";

type Level = keyof typeof LEVEL_LABEL;
const LEVELS = Object.keys(LEVEL_LABEL) as Level[];

/**
 * The subject's journal switch: every answer, changes and duplicates only, or off. Choosing another
 * level offers the save, which is audited and needs a reason; `editable` false shows the level alone.
 */
export function JournalLevelForm({ kind, subject, level, enabled, editable }: { kind: JournalKind; subject: string; level: Level; enabled: boolean; editable: boolean }) {
  const router = useRouter();
  const followFailure = useFollowFailure();
  const name = useId();
  const [chosen, setChosen] = useState<Level>(level);
  const [reason, setReason] = useState("");
  const save = useMutation({
    mutationFn: () => setJournalLevelAction({ kind, subject, level: chosen, reason }),
    onSuccess: (result) => {
      if (!result.ok) return followFailure(result);
      setReason("");
      router.refresh();
    },
  });
  const failure = save.data && !save.data.ok ? save.data : null;
  return (
    <section className="panel" aria-labelledby={`${name}-title`} data-testid="journal-level">
      <h2 id={`${name}-title`}>Decision journal</h2>
      <p className="small">
        Keeps: <strong data-testid="journal-level-now">{LEVEL_LABEL[level]}</strong>.{" "}
        {enabled ? "Applies on every node within a few seconds; entries already kept stay until retention drops them." : "This node keeps no journal (WEIR_JOURNAL=off)."}
      </p>
      {editable ? (
        <>
          <fieldset className="filters plain-fieldset">
            <legend className="small muted">What the journal keeps of this subject&apos;s answers</legend>
            {LEVELS.map((value) => (
              <label key={value} className="choice">
                <input type="radio" name={name} value={value} checked={chosen === value} onChange={() => setChosen(value)} /> {LEVEL_LABEL[value]}
              </label>
            ))}
          </fieldset>
          {chosen !== level ? (
            <ReasonedAction
              reason={reason}
              onReason={setReason}
              inputName="journal-reason"
              reasonErrors={failure?.fieldErrors?.reason}
              tone="primary"
              pending={save.isPending}
              label="Save journal level"
              pendingLabel="Saving…"
              onConfirm={() => save.mutate()}
            />
          ) : null}
          {save.data?.ok ? (
            <p className="small" role="status" data-testid="journal-level-saved">
              {save.data.data.changed ? `Saved: ${LEVEL_LABEL[save.data.data.level].toLowerCase()}.` : "That level was already set; nothing changed."}
            </p>
          ) : null}
          <FailureMessage failure={failure} />
        </>
      ) : null}
    </section>
  );
}
