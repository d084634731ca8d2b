import { Fragment, type ReactNode } from "react";
import { describeHidden, splitHidden } from "@/lib/views/hidden-chars";

/**
 * Text from outside (message ids, keys, display names, payload values) with every
 * invisible, bidi-control or look-alike space character shown as a badge such as
 * `\u200B`, so `m\u200B1` can never pass for `m1` and no override reorders the page.
 */
export function VisibleText({ text }: { text: string }): ReactNode {
  const parts = splitHidden(text);
  if (parts.length === 1 && typeof parts[0] === "string") return text;
  return parts.map((part, i) =>
    typeof part === "string" ? (
      <Fragment key={i}>{part}</Fragment>
    ) : (
      <span key={i} className="hidden-char" title={describeHidden(part.code)} data-testid="hidden-char">
        {part.label}
      </span>
    ),
  );
}
