import { Instant } from "@/components/ui/time-zone";
import { Badge } from "@/components/ui/badge";
import { DiffTable } from "@/components/ui/diff-table";
import type { Explanation } from "@/lib/views/explain";


const WHY = {
  new: "No state is stored for this key: check would store this hash as version 1.",
  duplicate: "This payload hashes to the stored hash: check would answer duplicate and write nothing.",
  changed: "The stored hash differs: check would store this hash as the next version.",
};

export function ExplanationView({ explanation: e }: { explanation: Explanation }) {
  return (
    <section className="panel" data-testid="explanation">
      <h2>
        check would answer <Badge tone={e.decision} /> <span className="muted small">(version {e.version})</span>
      </h2>
      <p>{WHY[e.decision]}</p>
      <div className="grid-2">
        <div>
          <h3>This payload</h3>
          <p className="small">
            Hash <code className="break" data-testid="explain-hash">{e.hash}</code>
          </p>
          {e.includedPaths.length ? (
            <p className="small">
              Only these paths are hashed: <code>{e.includedPaths.join(", ")}</code>
            </p>
          ) : null}
          <p className="small">
            Ignored paths stripped: {e.ignoredPresent.length ? <code>{e.ignoredPresent.join(", ")}</code> : <span className="muted">none present</span>}
            {e.ignoredPaths.length ? <span className="muted"> (service ignores {e.ignoredPaths.join(", ")})</span> : null}
          </p>
          <p className="small" data-testid="explain-normalise">
            Normalised: {e.normalise.length ? <code>{e.normalise.join(", ")}</code> : <span className="muted">nothing (numbers, nulls and empty containers as sent)</span>}
          </p>
        </div>
        <div>
          <h3>Stored state</h3>
          {e.stored ? (
            <p className="small">
              Version {e.stored.version}, hash <code className="break">{e.stored.hash}</code>, first seen <Instant value={e.stored.firstSeen} />, last
              change <Instant value={e.stored.lastChanged} />
            </p>
          ) : (
            <p className="small muted">No state for this key.</p>
          )}
          {e.storedSettings ? <StoredSettings settings={e.storedSettings} current={e.hashVersion} /> : null}
        </div>
      </div>
      <h3>Canonical form (what is hashed, normalised)</h3>
      <pre className="payload" data-testid="canonical">{e.canonical}</pre>
      {e.diff ? (
        <>
          <h3>Differences from the newest kept payload (v{e.diff.version})</h3>
          <DiffTable entries={e.diff.entries} />
        </>
      ) : null}
    </section>
  );
}

/**
 * A key stored before the service's hash settings changed is compared under the settings it was
 * stored with, so the two hashes above may differ on a duplicate: this shows the one compared.
 */
function StoredSettings({ settings: s, current }: { settings: NonNullable<Explanation["storedSettings"]>; current: number }) {
  return (
    <p className="small" data-testid="stored-settings">
      Stored under hash settings version {s.hashVersion} (the service is at version {current}
      {s.ignoredPaths.length ? <>; then ignoring <code>{s.ignoredPaths.join(", ")}</code></> : null}
      {s.includedPaths.length ? <>; then hashing only <code>{s.includedPaths.join(", ")}</code></> : null}
      {s.normalise.length ? <>; then normalising <code>{s.normalise.join(", ")}</code></> : null}). Under those settings this payload
      hashes to <code className="break" data-testid="stored-settings-hash">{s.hash}</code>: check compares that (or, when the service keeps
      history, the kept payload under today&apos;s settings), so a change of settings alone never makes a change.
    </p>
  );
}
