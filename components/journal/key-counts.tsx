import Link from "next/link";
import { Instant } from "@/components/ui/time-zone";
import { VisibleText } from "@/components/ui/visible-text";
import { formatCount } from "@/lib/views/format";
import type { KeyCountView } from "@/lib/views/journal-bucket";
import { CallerName } from "./caller-name";

/** Keys with the most entries in a range: each a link to its timeline, with first and last time and who sent it. */
export function KeyCounts({ keys, showSubject = false, noun = "Entries", testId = "top-keys" }: { keys: KeyCountView[]; showSubject?: boolean; noun?: string; testId?: string }) {
  return (
    <div className="table-wrap">
      <table className="small" data-testid={testId}>
        <thead>
          <tr>
            <th>Key</th>
            {showSubject ? <th>Subject</th> : null}
            <th className="num">{noun}</th>
            <th>First</th>
            <th>Last</th>
            <th>Callers</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={`${k.mode}:${k.subject}:${k.key}`}>
              <td className="break cell-wide">
                <Link href={k.href}>
                  <VisibleText text={k.key} />
                </Link>
              </td>
              {showSubject ? <td className="break">{k.subject}</td> : null}
              <td className="num">{formatCount(k.count)}</td>
              <td className="mono"><Instant value={k.firstAt} precision="micro" /></td>
              <td className="mono"><Instant value={k.lastAt} precision="micro" /></td>
              <td className="cell-wide">
                {k.callers.length === 0 ? (
                  <span className="muted">none recorded</span>
                ) : (
                  <ul className="plain">
                    {k.callers.map((c) => (
                      <li key={c.id}>
                        <CallerName caller={c} />
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
