import { LEVEL_LABEL } from "@/lib/views/journal-format";

/** Why the journal may hold fewer answers than were given: switched off on this node, or a subject level below "all". */
export function JournalStateNote({ enabled, level }: { enabled: boolean; level?: "all" | "changes_and_duplicates" | "off" }) {
  if (!enabled) {
    return (
      <p className="callout small" role="note">
        This node keeps no journal (<code>WEIR_JOURNAL=off</code>): answers given here are not recorded.
      </p>
    );
  }
  if (level === undefined || level === "all") return null;
  return (
    <p className="callout small" role="note" data-testid="journal-level-note">
      This subject&apos;s journal keeps: {LEVEL_LABEL[level].toLowerCase()}. Answers it leaves out are not listed.
    </p>
  );
}
