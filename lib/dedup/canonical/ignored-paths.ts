import { CanonicalJsonError } from "./errors";

/**
 * A trie of ignored JSON pointers. Segments are matched as strings: an array element
 * matches the decimal text of its index, so "/items/0" can match `{"items":{"0":…}}` too.
 */
export interface IgnoredPathTrie {
  /** The value at this node's path is dropped. */
  readonly ignored: boolean;
  readonly children: ReadonlyMap<string, IgnoredPathTrie>;
}

interface MutableTrie {
  ignored: boolean;
  children: Map<string, MutableTrie>;
}

/** Throws `invalid_pointer` unless `pointer` is an RFC 6901 JSON pointer; returns its decoded tokens. */
export function validateJsonPointer(pointer: string): string[] {
  if (typeof pointer !== "string") {
    throw new CanonicalJsonError("invalid_pointer", "JSON pointer must be a string");
  }
  if (pointer === "") return [];
  if (pointer.charCodeAt(0) !== 0x2f) {
    throw new CanonicalJsonError("invalid_pointer", `JSON pointer ${JSON.stringify(pointer)} must start with "/"`, 0);
  }
  const tokens: string[] = [];
  let token = "";
  let chunkStart = 1;
  for (let i = 1; i <= pointer.length; i++) {
    const c = i < pointer.length ? pointer.charCodeAt(i) : 0x2f;
    if (c === 0x2f) {
      tokens.push(token + pointer.slice(chunkStart, i));
      token = "";
      chunkStart = i + 1;
    } else if (c === 0x7e) {
      const next = pointer.charCodeAt(i + 1);
      if (next !== 0x30 && next !== 0x31) {
        throw new CanonicalJsonError(
          "invalid_pointer",
          `JSON pointer ${JSON.stringify(pointer)} has "~" not followed by 0 or 1`,
          i,
        );
      }
      token += pointer.slice(chunkStart, i) + (next === 0x30 ? "~" : "/");
      chunkStart = i + 2;
      i++;
    }
  }
  return tokens;
}

/**
 * Compiles pointers into a trie for the canonicalizer. The empty pointer (the whole
 * document) is refused: ignoring it would make every payload a duplicate.
 */
export function compileIgnoredPaths(pointers: readonly string[]): IgnoredPathTrie | null {
  if (!Array.isArray(pointers)) {
    throw new CanonicalJsonError("invalid_pointer", "ignored paths must be an array of JSON pointers");
  }
  const root: MutableTrie = { ignored: false, children: new Map() };
  for (const pointer of pointers) {
    const tokens = validateJsonPointer(pointer);
    if (tokens.length === 0) {
      throw new CanonicalJsonError("invalid_pointer", 'the empty JSON pointer "" (whole document) cannot be ignored');
    }
    let node = root;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (child === undefined) {
        child = { ignored: false, children: new Map() };
        node.children.set(token, child);
      }
      node = child;
    }
    node.ignored = true;
  }
  return root.children.size === 0 ? null : prune(root);
}

// Below an ignored node nothing else can match, so its children are dropped.
function prune(node: MutableTrie): MutableTrie {
  if (node.ignored) node.children.clear();
  for (const child of node.children.values()) prune(child);
  return node;
}
