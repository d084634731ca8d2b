import { EmptyState } from "@/components/ui/empty-state";
import { JsonPayload } from "@/components/ui/json-payload";
import { RelativeTime } from "@/components/ui/relative-time";
import type { KeyVersionView } from "@/lib/views/key-detail";

/** Stored payloads as received; untrusted, so rendered as text in <pre>, never as markup. */
export function VersionList({ versions, historyDepth }: { versions: KeyVersionView[]; historyDepth: number }) {
  if (versions.length === 0) {
    return (
      <EmptyState title="No payload versions are kept for this key.">
        {historyDepth === 0 ? "This service keeps hashes only (history depth 0)." : "Versions are kept from the next accepted change on."}
      </EmptyState>
    );
  }
  return (
    <div>
      {versions.map((v) => (
        <details key={v.version} open={v === versions[0]} data-testid={`version-${v.version}`}>
          <summary>
            <strong>v{v.version}</strong> · recorded <RelativeTime value={v.recordedAt} /> · <code title={v.hash}>{v.hash.slice(0, 16)}…</code>
            {v.ignoredPresent.length ? <span className="muted small"> · ignored here: {v.ignoredPresent.join(", ")}</span> : null}
          </summary>
          <JsonPayload text={v.payload} label={`payload v${v.version}`} />
        </details>
      ))}
    </div>
  );
}
