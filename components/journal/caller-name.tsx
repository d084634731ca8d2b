import { VisibleText } from "@/components/ui/visible-text";
import type { CallerView } from "@/lib/views/journal-callers";

/** A caller by its token's name when it has one, always with the id the journal keeps (what the API and exports say). */
export function CallerName({ caller }: { caller: CallerView | null }) {
  if (caller === null) return <span className="muted">none recorded</span>;
  if (caller.name === null) return <code className="break"><VisibleText text={caller.id} /></code>;
  return (
    <span className="break">
      <VisibleText text={caller.name} /> <code className="muted">{caller.id}</code>
    </span>
  );
}
