import { Instant } from "@/components/ui/time-zone";
import { formatCount } from "@/lib/views/format";
import { KIND_LABEL } from "@/lib/views/journal-format";
import type { GapView } from "@/lib/views/journal-gaps";

const SHOWN = 20;

/**
 * Says exactly which minutes of which subject the journal misses entries for (a node's buffer was
 * full): the decisions were all answered, only their record is incomplete. Nothing when there are none.
 */
export function GapNotice({ gaps }: { gaps: GapView[] }) {
  if (gaps.length === 0) return null;
  const lost = gaps.reduce((sum, g) => sum + g.dropped, 0);
  return (
    <div className="panel callout callout-danger" role="status" data-testid="journal-gaps">
      <strong>
        The journal misses {lost.toLocaleString("en-US")} {lost === 1 ? "entry" : "entries"} here: a node&apos;s journal buffer was full. Every
        decision was answered; these were not recorded.
      </strong>
      <ul className="small">
        {gaps.slice(0, SHOWN).map((g) => (
          <li key={`${g.kind}:${g.subject}:${g.minute}`}>
            {KIND_LABEL[g.kind] ?? g.kind} {g.subject}, <Instant value={g.minute} precision="minute" />: {formatCount(g.dropped)}{" "}
            {g.dropped === 1 ? "entry" : "entries"} lost
          </li>
        ))}
        {gaps.length > SHOWN ? <li>… and {gaps.length - SHOWN} more minutes</li> : null}
      </ul>
    </div>
  );
}
