import { CopyButton } from "./copy-button";

/** A hash shown by its first digits (the whole value in the tooltip) and copied whole. */
export function ShortHash({ value, label, digits = 16 }: { value: string; label: string; digits?: number }) {
  return (
    <>
      <code title={value}>{value.slice(0, digits)}…</code> <CopyButton value={value} label={label} />
    </>
  );
}
