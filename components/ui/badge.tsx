/** A status word with its colour; the word is always shown, colour only helps. */
export function Badge({ tone, children }: { tone: string; children?: React.ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children ?? tone.replace(/_/g, " ")}</span>;
}
