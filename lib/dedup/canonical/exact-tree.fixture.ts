import fc from "fast-check";
import { seededRandom } from "../../seeded-random";

/** A JSON tree kept exactly as written: numbers as text, strings as code units. */
export type Tree =
  | { kind: "null" }
  | { kind: "boolean"; value: boolean }
  | { kind: "number"; text: string }
  | { kind: "string"; value: string }
  | { kind: "array"; items: Tree[] }
  | { kind: "object"; members: [string, Tree][] };

export interface TreeAlphabet {
  keys: fc.Arbitrary<string>;
  strings: fc.Arbitrary<string>;
  numbers: fc.Arbitrary<string>;
  maxDepth: number;
}

const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
export const numberText = fc.stringMatching(/^-?(0|[1-9][0-9]{0,24})(\.[0-9]{1,24})?([eE][+-]?[0-9]{1,3})?$/);
const codeUnit = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xffff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }) },
);
export const anyString = fc.array(codeUnit, { maxLength: 12 }).map((units) => String.fromCharCode(...units));

export const wideAlphabet: TreeAlphabet = { keys: anyString, strings: anyString, numbers: numberText, maxDepth: 5 };

/** Few values, so that random pairs are often equal or nearly so. */
export const narrowAlphabet: TreeAlphabet = {
  keys: fc.constantFrom("a", "b", "__proto__", "", "é", "\ud800", "\ufffd", 'a"'),
  strings: fc.constantFrom("", "1", "a", "é", "\u0000", "\ud800", "\udc00", "\ufffd", "😀", '"', "\\", "/"),
  numbers: fc.constantFrom("0", "-0", "1", "1.0", "10", "1e1", "1E1", "9007199254740993", "9007199254740992", "0.1"),
  maxDepth: 3,
};

export function treeArbitrary(alphabet: TreeAlphabet): fc.Arbitrary<Tree> {
  const leaf: fc.Arbitrary<Tree> = fc.oneof(
    fc.constant<Tree>({ kind: "null" }),
    fc.boolean().map<Tree>((value) => ({ kind: "boolean", value })),
    alphabet.numbers.map<Tree>((text) => ({ kind: "number", text })),
    alphabet.strings.map<Tree>((value) => ({ kind: "string", value })),
  );
  const { tree } = fc.letrec<{ tree: Tree; array: Tree; object: Tree }>((tie) => ({
    tree: fc.oneof({ maxDepth: alphabet.maxDepth, depthSize: "small" }, leaf, tie("array"), tie("object")),
    array: fc.array(tie("tree"), { maxLength: 4 }).map<Tree>((items) => ({ kind: "array", items })),
    object: fc
      .uniqueArray(fc.tuple(alphabet.keys, tie("tree")), { selector: ([key]) => key, maxLength: 4 })
      .map<Tree>((members) => ({ kind: "object", members })),
  }));
  return tree;
}

/** `tree` with its `index`-th node (preorder, modulo the node count) replaced. */
export function replaceNode(tree: Tree, index: number, replace: (node: Tree) => Tree): Tree {
  let remaining = index % countNodes(tree);
  const visit = (node: Tree): Tree => {
    if (remaining-- === 0) return replace(node);
    if (node.kind === "array") return { kind: "array", items: node.items.map(visit) };
    if (node.kind === "object") return { kind: "object", members: node.members.map(([k, v]) => [k, visit(v)]) };
    return node;
  };
  return visit(tree);
}

/** A node that differs from `node` in one small way that a sloppy hash might miss. */
export function twin(node: Tree, variant: number): Tree {
  const pick = (options: Tree[]): Tree => options[variant % options.length]!;
  switch (node.kind) {
    case "null":
      return pick([{ kind: "string", value: "null" }, { kind: "boolean", value: false }, { kind: "array", items: [] }]);
    case "boolean":
      return pick([{ kind: "boolean", value: !node.value }, { kind: "string", value: String(node.value) }]);
    case "number": {
      const { text } = node;
      const lastDigit = text.search(/[0-9](?=[eE]|$)/);
      const candidates = [
        /[.eE]/.test(text) ? text.replace(/([0-9])([eE]|$)/, "$10$2") : text + ".0",
        text.startsWith("-") ? text.slice(1) : "-" + text,
        text.slice(0, lastDigit) + ((Number(text[lastDigit]) + 1) % 10) + text.slice(lastDigit + 1),
        text.replace(/e/, "E"),
      ].filter((candidate) => JSON_NUMBER.test(candidate) && candidate !== text);
      return pick([{ kind: "string", value: text }, ...candidates.map<Tree>((t) => ({ kind: "number", text: t }))]);
    }
    case "string": {
      const { value } = node;
      return pick([
        { kind: "string", value: value + "\u0000" },
        { kind: "string", value: value.replace(/[\ud800-\udfff]/, "\ufffd") },
        { kind: "string", value: "\ud800" + value },
        { kind: "string", value: value.slice(1) },
        { kind: "number", text: /^-?(0|[1-9][0-9]*)$/.test(value) ? value : "0" },
      ]);
    }
    case "array":
      return pick([
        { kind: "array", items: node.items.slice(1) },
        { kind: "array", items: [...node.items].reverse() },
        { kind: "array", items: [node] },
        { kind: "object", members: node.items.map((item, i) => [String(i), item]) },
      ]);
    case "object":
      return pick([
        { kind: "object", members: node.members.slice(1) },
        { kind: "object", members: node.members.map(([k, v], i) => [i === 0 ? k + "\ud800" : k, v]) },
        { kind: "array", items: node.members.map(([, v]) => v) },
        { kind: "object", members: [...node.members, ["__proto__", { kind: "null" }]] },
      ]);
  }
}

function countNodes(tree: Tree): number {
  if (tree.kind === "array") return 1 + tree.items.reduce((n, item) => n + countNodes(item), 0);
  if (tree.kind === "object") return 1 + tree.members.reduce((n, [, v]) => n + countNodes(v), 0);
  return 1;
}

export function treeEquals(a: Tree, b: Tree): boolean {
  switch (a.kind) {
    case "null":
      return b.kind === "null";
    case "boolean":
      return b.kind === "boolean" && a.value === b.value;
    case "number":
      return b.kind === "number" && a.text === b.text;
    case "string":
      return b.kind === "string" && a.value === b.value;
    case "array":
      return b.kind === "array" && a.items.length === b.items.length && a.items.every((item, i) => treeEquals(item, b.items[i]!));
    case "object": {
      if (b.kind !== "object" || a.members.length !== b.members.length) return false;
      const other = new Map(b.members);
      return a.members.every(([key, value]) => other.has(key) && treeEquals(value, other.get(key)!));
    }
  }
}

/** JSON text for `tree`; `seed` picks member order, whitespace and how strings are escaped. */
export function serialize(tree: Tree, seed: number): string {
  const random = seededRandom(seed);
  const ws = () => (random() < 0.3 ? [" ", "\n", "\t", "\r\n", "  "][Math.floor(random() * 5)]! : "");
  const write = (node: Tree): string => {
    switch (node.kind) {
      case "null":
        return "null";
      case "boolean":
        return String(node.value);
      case "number":
        return node.text;
      case "string":
        return writeString(node.value, random);
      case "array":
        return "[" + ws() + node.items.map((item) => ws() + write(item) + ws()).join(",") + "]";
      case "object": {
        const members = shuffle(node.members, random);
        return "{" + ws() + members.map(([k, v]) => ws() + writeString(k, random) + ws() + ":" + ws() + write(v) + ws()).join(",") + "}";
      }
    }
  };
  return ws() + write(tree) + ws();
}

const SHORT_ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: "\\\\", 0x2f: "\\/", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t" };

function writeString(value: string, random: () => number): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const mustEscape = c < 0x20 || c === 0x22 || c === 0x5c;
    const roll = random();
    if (SHORT_ESCAPES[c] !== undefined && (mustEscape || roll < 0.3) && roll < 0.7) out += SHORT_ESCAPES[c];
    else if (mustEscape || roll < 0.15) out += unicodeEscape(c, random() < 0.5);
    else out += value[i];
  }
  return out + '"';
}

function unicodeEscape(c: number, upper: boolean): string {
  const hex = c.toString(16).padStart(4, "0");
  return "\\u" + (upper ? hex.toUpperCase() : hex);
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

