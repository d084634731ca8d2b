import { Instant } from "@/components/ui/time-zone";
import Form from "next/form";
import { RelativeTime } from "@/components/ui/relative-time";
import { VisibleText } from "@/components/ui/visible-text";


export interface ClaimView {
  messageId: string;
  claimedAt: string;
  previousClaimedAt: string | null;
  /** The caller's ref given with the claim that opened the window. */
  ref: string | null;
  /** The window a claim now would be matched against: what a duplicate answer says. */
  windowStartedAt: string;
  windowEndsAt: string;
  inWindow: boolean;
}

/** Exact lookup of one claim in this group: is the message inside its window now, and was it redelivered late? */
export function ClaimLookup({ groupId, query, claim }: { groupId: string; query: string; claim: ClaimView | null | undefined }) {
  return (
    <section className="panel">
      <h2>Find a claim</h2>
      <Form action={`/groups/${groupId}`} className="filters" aria-label="Find a claim">
        <label className="field">
          <span>Exact message id</span>
          <input name="claim" defaultValue={query} required maxLength={512} size={36} />
        </label>
        <button type="submit">Find</button>
      </Form>
      {claim === undefined ? null : claim === null ? (
        <p className="small" role="status" data-testid="claim-result">
          No claim of <code><VisibleText text={query} /></code> is stored in this group (never claimed, or cleaned up after its window).
        </p>
      ) : (
        <p className="small" role="status" data-testid="claim-result">
          <code><VisibleText text={claim.messageId} /></code> claimed <RelativeTime value={claim.claimedAt} />:{" "}
          {claim.inWindow ? "inside its window, so a redelivery now is a duplicate" : "its window has passed, so a redelivery now is claimed again"}.{" "}
          <span data-testid="claim-window">
            Window: started <Instant value={claim.windowStartedAt} />, {claim.inWindow ? "ends" : "ended"} <Instant value={claim.windowEndsAt} />.
          </span>
          {claim.previousClaimedAt ? (
            <>
              {" "}
              It was a late redelivery: first claimed <RelativeTime value={claim.previousClaimedAt} />.
            </>
          ) : null}{" "}
          <span data-testid="claim-ref">
            Ref of the claim: {claim.ref === null ? <span className="muted">none given</span> : <code><VisibleText text={claim.ref} /></code>}.
          </span>
        </p>
      )}
    </section>
  );
}
