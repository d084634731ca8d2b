import type { ReactNode } from "react";
import { parseExactJson, type ExactJson } from "@/lib/views/exact-json";
import { CopyButton } from "./copy-button";
import { VisibleText } from "./visible-text";

/** Containers deeper than this start folded; a click on their summary opens them. */
const OPEN_DEPTH = 2;

function Scalar({ value }: { value: Exclude<ExactJson, { type: "array" | "object" }> }) {
  if (value.type === "string") return <span className="json-string"><VisibleText text={JSON.stringify(value.value)} /></span>;
  if (value.type === "number") return <span className="json-number">{value.text}</span>;
  return <span className="json-literal">{value.type === "null" ? "null" : String(value.value)}</span>;
}

function Node({ value, depth, name }: { value: ExactJson; depth: number; name?: ReactNode }): ReactNode {
  const label = name === undefined ? null : <>{name}: </>;
  if (value.type !== "array" && value.type !== "object") {
    return (
      <li>
        {label}
        <Scalar value={value} />
      </li>
    );
  }
  const entries: [ReactNode, ExactJson][] =
    value.type === "array"
      ? value.items.map((item, i) => [<span className="muted" key="i">{i}</span>, item])
      : Array.from(value.fields, ([k, v]) => [<span className="json-key" key="k"><VisibleText text={JSON.stringify(k)} /></span>, v]);
  const [open, close] = value.type === "array" ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return <li>{label}{open + close}</li>;
  return (
    <li>
      <details open={depth < OPEN_DEPTH}>
        <summary>
          {label}
          {open} <span className="muted small">{entries.length} {value.type === "array" ? "items" : "fields"}</span> {close}
        </summary>
        <ul className="json-tree">
          {entries.map(([key, child], i) => (
            <Node key={i} value={child} depth={depth + 1} name={key} />
          ))}
        </ul>
      </details>
    </li>
  );
}

/** A stored payload, pretty-printed and foldable, numbers exactly as received; raw text when it is not JSON. */
export function JsonPayload({ text, label = "payload", testId }: { text: string; label?: string; testId?: string }) {
  let tree: ExactJson | null = null;
  try {
    tree = parseExactJson(text);
  } catch {
    tree = null;
  }
  return (
    <div className="payload-box" data-testid={testId}>
      <div className="payload-tools">
        <CopyButton value={text} label={label} />
      </div>
      {tree ? (
        <ul className="json-tree json-root payload">
          <Node value={tree} depth={0} />
        </ul>
      ) : (
        <pre className="payload">
          <VisibleText text={text} />
        </pre>
      )}
    </div>
  );
}
