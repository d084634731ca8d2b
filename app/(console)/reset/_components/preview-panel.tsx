import { Instant } from "@/components/ui/time-zone";
import { formatCount } from "@/lib/views/format";
import type { ResetPreview } from "@/lib/reset/preview-reset";

/** The dry run: how many rows, a sample of them, and ids of a list that have no state. */
export function PreviewPanel({ preview, kind }: { preview: ResetPreview; kind: "last_seen" | "window" }) {
  return (
    <div className="callout" data-testid="reset-preview">
      <p>
        <strong data-testid="preview-count">{formatCount(preview.count)}</strong> {kind === "last_seen" ? "keys" : "window records"} would be reset
        {preview.missing ? ` (${formatCount(preview.missing)} of the listed ids have no state)` : ""}.
      </p>
      {preview.sample.length > 0 ? (
        <table className="small">
          <thead>
            <tr>
              <th>Sample message id</th>
              {kind === "last_seen" ? <th className="num">Version</th> : null}
              <th>{kind === "last_seen" ? "Last change" : "Claimed"}</th>
            </tr>
          </thead>
          <tbody>
            {preview.sample.map((row) => (
              <tr key={row.messageId}>
                <td className="break">{row.messageId}</td>
                {kind === "last_seen" ? <td className="num">{row.version}</td> : null}
                <td><Instant value={row.at} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
