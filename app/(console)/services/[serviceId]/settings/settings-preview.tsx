import { Instant } from "@/components/ui/time-zone";
import Link from "next/link";
import type { ReactNode } from "react";
import { VisibleText } from "@/components/ui/visible-text";

import type { HashedForm, ServiceSettingsPreview } from "@/lib/views/service-settings";

const pathList = (paths: string[]) => (paths.length ? <code>{paths.join(", ")}</code> : "none");

/** What saving the previewed settings does, and the button that does it. */
export function SettingsPreview({ preview, pending, onConfirm }: { preview: ServiceSettingsPreview; pending: boolean; onConfirm(): void }) {
  const { current, next, sample } = preview;
  const changes: [string, ReactNode, ReactNode][] = [];
  if (next.displayName !== current.displayName) changes.push(["Display name", <VisibleText key="a" text={current.displayName} />, <VisibleText key="b" text={next.displayName} />]);
  if (next.historyDepth !== current.historyDepth) changes.push(["History depth", current.historyDepth, next.historyDepth]);
  if (next.ignoredPaths.join("\n") !== current.ignoredPaths.join("\n")) changes.push(["Ignored paths", pathList(current.ignoredPaths), pathList(next.ignoredPaths)]);
  if (next.includedPaths.join("\n") !== current.includedPaths.join("\n")) changes.push(["Included paths", pathList(current.includedPaths), pathList(next.includedPaths)]);
  if (next.normalise.join("\n") !== current.normalise.join("\n")) changes.push(["Normalisation", pathList(current.normalise), pathList(next.normalise)]);
  return (
    <div className="callout" data-testid="settings-preview">
      {preview.unchanged ? (
        <p>Nothing to save: these are the current settings (order and repeats in a list are no change).</p>
      ) : (
        <ul>
          {changes.map(([label, before, after]) => (
            <li key={label}>
              {label}: {before} → {after}
            </li>
          ))}
        </ul>
      )}
      <p data-testid="hash-version-effect">
        {preview.newHashVersion ? (
          <>
            <strong>
              A new hash settings version: v{current.hashVersion} → v{preview.hashVersionAfter}.
            </strong>{" "}
            Checks from now on hash payloads under v{preview.hashVersionAfter}.
          </>
        ) : (
          <>The same hash settings version (v{current.hashVersion}): the paths and normalisations do not change.</>
        )}{" "}
        Stored keys keep being compared under the settings they were made with: a payload unchanged under those is still a duplicate.
        {preview.newHashVersion ? " One that differs only where the new settings stop looking is changed once, then judged by the new settings." : null}
      </p>
      {sample ? (
        <>
          <p>
            The newest kept payload (<Link href={`/services/${current.id}/key?id=${encodeURIComponent(sample.messageId)}`}>
              <VisibleText text={sample.messageId} />
            </Link>{" "}
            version {sample.version}, <Instant value={sample.recordedAt} />): {sameHash(sample.before, sample.after) ? "the same hash before and after." : "hashed differently after."}
          </p>
          <div className="filters" style={{ alignItems: "flex-start" }}>
            <HashedPanel title={`Hashed now (v${current.hashVersion})`} form={sample.before} testId="hashed-before" />
            <HashedPanel title={`Hashed after (v${preview.hashVersionAfter})`} form={sample.after} testId="hashed-after" />
          </div>
        </>
      ) : (
        <p className="muted small" data-testid="no-kept-payload">
          {current.historyDepth === 0 ? "This service keeps hashes only, so no payload can show what is hashed." : "No payload is kept yet to show what is hashed."}
        </p>
      )}
      <p className="actions">
        <button type="button" className="primary" disabled={pending || preview.unchanged} onClick={onConfirm}>
          {pending ? "Saving…" : preview.newHashVersion ? `Save and start hash settings v${preview.hashVersionAfter}` : "Save settings"}
        </button>
      </p>
    </div>
  );
}

const sameHash = (a: HashedForm, b: HashedForm) => "hash" in a && "hash" in b && a.hash === b.hash;

function HashedPanel({ title, form, testId }: { title: string; form: HashedForm; testId: string }) {
  return (
    <div className="field" style={{ flex: "1 1 20rem" }}>
      <h3>{title}</h3>
      {"canonical" in form ? (
        <pre className="payload" data-testid={testId}>
          {form.canonical}
        </pre>
      ) : (
        <p className="form-error" data-testid={testId}>
          Not hashable: {form.error}
        </p>
      )}
    </div>
  );
}
