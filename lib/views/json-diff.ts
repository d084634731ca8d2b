import { escapePointerToken } from "@/lib/dedup/canonical/errors";
import { compileIgnoredPaths, validateJsonPointer, type PathFilter } from "@/lib/dedup/canonical/path-filter";
import { exactEqual, parseExactJson, renderExactJson, type ExactJson } from "./exact-json";

export type DiffKind = "added" | "removed" | "changed";

export interface DiffEntry {
  /** RFC 6901 pointer of the field or array element. */
  path: string;
  kind: DiffKind;
  before?: string;
  after?: string;
  /** Left out of the hash (an ignored path, or outside the included ones): the change does not affect it. */
  ignored: boolean;
}

/*
 * Hand-written rather than a diff library: the diff must see the payload the
 * way the structural hash does (numbers compared by their exact text, object
 * field order irrelevant, array order significant), and libraries work on
 * JSON.parse output, which rounds big integers and merges 1 with 1.0.
 */
export function diffExact(before: ExactJson, after: ExactJson, ignored: PathFilter | null = null): DiffEntry[] {
  const out: DiffEntry[] = [];
  walk(before, after, "", ignored, false, out);
  return out;
}

function walk(a: ExactJson, b: ExactJson, path: string, trie: PathFilter | null, ignored: boolean, out: DiffEntry[]) {
  if (a.type === "object" && b.type === "object") {
    for (const [key, value] of a.fields) {
      const [childPath, child, childIgnored] = descend(path, key, trie, ignored);
      const other = b.fields.get(key);
      if (other === undefined) out.push({ path: childPath, kind: "removed", before: renderExactJson(value), ignored: childIgnored });
      else walk(value, other, childPath, child, childIgnored, out);
    }
    for (const [key, value] of b.fields) {
      if (a.fields.has(key)) continue;
      const [childPath, , childIgnored] = descend(path, key, trie, ignored);
      out.push({ path: childPath, kind: "added", after: renderExactJson(value), ignored: childIgnored });
    }
    return;
  }
  if (a.type === "array" && b.type === "array") {
    const length = Math.max(a.items.length, b.items.length);
    for (let i = 0; i < length; i++) {
      const [childPath, child, childIgnored] = descend(path, String(i), trie, ignored);
      const x = a.items[i];
      const y = b.items[i];
      if (y === undefined) out.push({ path: childPath, kind: "removed", before: renderExactJson(x!), ignored: childIgnored });
      else if (x === undefined) out.push({ path: childPath, kind: "added", after: renderExactJson(y), ignored: childIgnored });
      else walk(x, y, childPath, child, childIgnored, out);
    }
    return;
  }
  if (!exactEqual(a, b)) out.push({ path, kind: "changed", before: renderExactJson(a), after: renderExactJson(b), ignored });
}

function descend(
  path: string,
  token: string,
  trie: PathFilter | null,
  ignored: boolean,
): [string, PathFilter | null, boolean] {
  const child = trie?.children.get(token) ?? null;
  // Left out of the hash: under an ignored path, or outside every included one.
  const dropped = child === null ? trie?.keepsOnlyListed === true : child.ignored;
  return [`${path}/${escapePointerToken(token)}`, child, ignored || dropped];
}

/** Diffs two stored payload texts under a service's ignored paths. */
export function diffPayloads(beforeText: string, afterText: string, ignoredPaths: readonly string[] = []): DiffEntry[] {
  return diffExact(parseExactJson(beforeText), parseExactJson(afterText), compileIgnoredPaths(ignoredPaths));
}

/** The ignored paths that point at something in this payload (and so were stripped before hashing). */
export function presentPaths(value: ExactJson, pointers: readonly string[]): string[] {
  return pointers.filter((pointer) => {
    let node: ExactJson | undefined = value;
    for (const token of validateJsonPointer(pointer)) {
      if (node?.type === "object") node = node.fields.get(token);
      else if (node?.type === "array" && /^(0|[1-9]\d*)$/.test(token)) node = node.items[Number(token)];
      else return false;
    }
    return node !== undefined;
  });
}
