"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FailureMessage } from "@/components/ui/failure-message";
import { Field } from "@/components/ui/field";
import { previewServiceSettingsAction, saveServiceSettingsAction } from "@/lib/actions/services";
import type { ActionFailure } from "@/lib/console/action-result";
import { useFollowFailure } from "@/lib/console/client-failure";
import type { ServiceSettingsDraft, ServiceSettingsView } from "@/lib/views/service-settings";
import { discardDraft, keepDraft, useKeptDraft } from "./kept-draft";
import { SettingsPreview } from "./settings-preview";

/** The form as typed: kept as text, so a bad value stays in its field next to its error. */
interface FormText {
  displayName: string;
  historyDepth: string;
  ignoredPaths: string;
  includedPaths: string;
  normalise: string[];
}

/** The normalisations, as the form offers them (docs/normalisation.md). */
const NORMALISE_CHOICES: readonly { name: "numbers" | "nulls" | "empty_containers"; label: string }[] = [
  { name: "numbers", label: "Numbers by exact value (1 = 1.0 = 1e0)" },
  { name: "nulls", label: "null as absent" },
  { name: "empty_containers", label: "Empty objects and arrays left out" },
];

const textOf = (s: ServiceSettingsView): FormText => ({
  displayName: s.displayName,
  historyDepth: String(s.historyDepth),
  ignoredPaths: s.ignoredPaths.join("\n"),
  includedPaths: s.includedPaths.join("\n"),
  normalise: [...s.normalise],
});

/** One pointer per line; blank lines and the spaces around a pointer are not part of it. */
const linesOf = (text: string) => text.split("\n").map((line) => line.trim()).filter((line) => line !== "");

const draftOf = (serviceId: string, t: FormText): ServiceSettingsDraft => ({
  serviceId,
  settings: {
    displayName: t.displayName,
    // Not a number stays one the verb refuses (with the field), never a silent 0.
    historyDepth: t.historyDepth.trim() === "" ? Number.NaN : Number(t.historyDepth),
    ignoredPaths: linesOf(t.ignoredPaths),
    includedPaths: linesOf(t.includedPaths),
    normalise: NORMALISE_CHOICES.map((c) => c.name).filter((name) => t.normalise.includes(name)),
  },
});

/** Edit a service's settings, starting from what was typed before a sign-in when there is such a draft. */
export function SettingsForm({ service }: { service: ServiceSettingsView }) {
  const kept = useKeptDraft(service.id);
  return <SettingsEditor key={kept ?? "saved"} service={service} initial={kept === null ? textOf(service) : { ...textOf(service), ...(JSON.parse(kept) as Partial<FormText>) }} restored={kept !== null} />;
}

/** The preview of what the change does comes first, then saving it. */
function SettingsEditor({ service, initial, restored }: { service: ServiceSettingsView; initial: FormText; restored: boolean }) {
  const followFailure = useFollowFailure();
  const router = useRouter();
  const [text, setText] = useState<FormText>(initial);
  const draft = draftOf(service.id, text);
  const onFailure = (failure: ActionFailure) => {
    if (failure.code === "reauth_required") keepDraft(service.id, text);
    followFailure(failure);
  };
  const preview = useMutation({
    mutationFn: previewServiceSettingsAction,
    onMutate: () => save.reset(),
    onSuccess: (result) => (result.ok ? undefined : onFailure(result)),
  });
  const save = useMutation({
    mutationFn: saveServiceSettingsAction,
    onSuccess: (result) => {
      if (!result.ok) return onFailure(result);
      preview.reset();
      router.refresh();
    },
  });
  const previewed = preview.data?.ok && JSON.stringify(preview.variables) === JSON.stringify(draft) ? preview.data.data : null;
  const failure = (save.data && !save.data.ok ? save.data : null) ?? (preview.data && !preview.data.ok ? preview.data : null);
  const errors = failure?.fieldErrors ?? {};
  const toggle = (name: string) => (e: { target: { checked: boolean } }) =>
    setText((t) => ({ ...t, normalise: e.target.checked ? [...t.normalise, name] : t.normalise.filter((n) => n !== name) }));
  const edit = (field: Exclude<keyof FormText, "normalise">) => (e: { target: { value: string } }) => setText((t) => ({ ...t, [field]: e.target.value }));
  return (
    <section className="panel" aria-label="Edit settings">
      <h2>Change the settings</h2>
      {restored && !save.data?.ok ? (
        <p className="small" role="status">
          Restored what you typed before signing in again.{" "}
          <button type="button" onClick={() => discardDraft(service.id)}>
            Discard it
          </button>
        </p>
      ) : null}
      <div className="filters" style={{ alignItems: "flex-start" }}>
        <Field label="Display name" errors={errors.displayName}>
          <input name="displayName" value={text.displayName} onChange={edit("displayName")} size={32} />
        </Field>
        <Field label="History depth" errors={errors.historyDepth} hint="payload versions kept per key, 0–100 (0: hashes only)">
          <input name="historyDepth" type="number" min={0} max={100} value={text.historyDepth} onChange={edit("historyDepth")} style={{ width: "8rem" }} />
        </Field>
      </div>
      <div className="filters" style={{ marginTop: "0.75rem", alignItems: "flex-start" }}>
        <Field label="Ignored paths" errors={errors.ignoredPaths} hint="one JSON pointer per line, such as /meta/sentAt: stripped before hashing">
          <textarea name="ignoredPaths" rows={4} cols={40} value={text.ignoredPaths} onChange={edit("ignoredPaths")} spellCheck={false} />
        </Field>
        <Field label="Included paths" errors={errors.includedPaths} hint="one JSON pointer per line: the only subtrees hashed (none: the whole payload)">
          <textarea name="includedPaths" rows={4} cols={40} value={text.includedPaths} onChange={edit("includedPaths")} spellCheck={false} />
        </Field>
      </div>
      <fieldset className="small" style={{ marginTop: "0.75rem" }}>
        <legend>Normalise before hashing (a change is a new hash settings version)</legend>
        {NORMALISE_CHOICES.map((choice) => (
          <label key={choice.name} style={{ display: "block" }}>
            <input type="checkbox" name="normalise" value={choice.name} checked={text.normalise.includes(choice.name)} onChange={toggle(choice.name)} /> {choice.label}
          </label>
        ))}
        {errors.normalise ? <p className="error small">{errors.normalise.join("; ")}</p> : null}
      </fieldset>
      <p className="actions">
        <button type="button" onClick={() => preview.mutate(draft)} disabled={preview.isPending}>
          {preview.isPending ? "Working it out…" : "Preview change"}
        </button>
      </p>
      {previewed ? (
        <SettingsPreview
          preview={previewed}
          pending={save.isPending}
          onConfirm={() => save.mutate({ ...draft, previewedAt: previewed.current.updatedAt })}
        />
      ) : (
        <p className="muted small">Preview first: saving is offered for the settings you previewed.</p>
      )}
      {save.data?.ok ? (
        <p className="small" role="status" data-testid="settings-saved">
          Saved: hash settings v{save.data.data.hashVersion}
          {save.data.data.newHashVersion ? " (a new version)" : " (unchanged)"}. <Link href={`/services/${service.id}`}>Back to the keys</Link>
        </p>
      ) : null}
      <FailureMessage failure={failure} />
    </section>
  );
}
