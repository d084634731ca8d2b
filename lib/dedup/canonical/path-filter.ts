import { CanonicalJsonError } from "./errors";

/**
 * What of a payload is hashed, as a trie of JSON pointers: the included paths (all of the payload
 * when none are listed) minus the ignored ones. Segments are matched as strings: an array element
 * matches the decimal text of its index, so "/items/0" can match `{"items":{"0":…}}` too.
 */
export interface PathFilter {
  /** The value at this node's path is dropped. */
  readonly ignored: boolean;
  /**
   * Only the members (or elements) listed in `children` are kept: a node on the way to an
   * included path. A scalar found here is kept as it is, its type being all there is to compare.
   */
  readonly keepsOnlyListed: boolean;
  readonly children: ReadonlyMap<string, PathFilter>;
  /** On the root only: the normalisations applied to the whole value. */
  readonly normalise?: Normalise;
}

/** What a service may normalise before hashing (see docs/normalisation.md). */
export const NORMALISATIONS = ["numbers", "nulls", "empty_containers"] as const;
export type Normalisation = (typeof NORMALISATIONS)[number];

export interface Normalise {
  /** Numbers compared by exact decimal value: `1`, `1.0`, `1e0` are one number. */
  readonly numbers: boolean;
  /** A member whose value is `null` is left out, as if absent. */
  readonly nulls: boolean;
  /** A member whose value is an empty object or array (sent so, or left so by the filter) is left out. */
  readonly emptyContainers: boolean;
}

export interface HashSettings {
  ignoredPaths: readonly string[];
  includedPaths: readonly string[];
  /** Absent or empty: no normalisation (how every service hashed before it existed). */
  normalise?: readonly string[];
}

/** The normalisations a list names, or undefined for none; throws `invalid_normalisation` for an unknown name. */
export function compileNormalise(names: readonly string[] | undefined): Normalise | undefined {
  if (names === undefined || names.length === 0) return undefined;
  for (const name of names) {
    if (!(NORMALISATIONS as readonly string[]).includes(name)) {
      throw new CanonicalJsonError("invalid_pointer", `unknown normalisation ${JSON.stringify(name)}: expected one of ${NORMALISATIONS.join(", ")}`);
    }
  }
  return { numbers: names.includes("numbers"), nulls: names.includes("nulls"), emptyContainers: names.includes("empty_containers") };
}

interface MutableFilter {
  ignored: boolean;
  keepsOnlyListed: boolean;
  /** An included path ends here: all below is kept (but for ignored paths). */
  whole: boolean;
  children: Map<string, MutableFilter>;
  normalise?: Normalise;
}

const node = (keepsOnlyListed: boolean): MutableFilter => ({ ignored: false, keepsOnlyListed, whole: false, children: new Map() });

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

/** The filter of ignored paths alone (every other path is hashed). */
export function compileIgnoredPaths(pointers: readonly string[]): PathFilter | null {
  return compilePathFilter({ ignoredPaths: pointers, includedPaths: [] });
}

/**
 * Compiles a service's hash settings into one trie for the canonicalizer, or null when the whole
 * payload is hashed. The empty pointer (the whole document) is refused in either list: ignoring it
 * would make every payload a duplicate, and including it is what an empty list already means.
 */
export function compilePathFilter({ ignoredPaths, includedPaths, normalise: names }: HashSettings): PathFilter | null {
  const normalise = compileNormalise(names);
  const root: MutableFilter = node(false);
  // Shorter paths first: once a path is included whole, a longer one under it adds nothing.
  for (const tokens of pointerTokens(includedPaths, "included").sort((a, b) => a.length - b.length)) {
    root.keepsOnlyListed = true;
    let at = root;
    for (const token of tokens) {
      let child = at.children.get(token);
      if (child === undefined) at.children.set(token, (child = node(true)));
      at = child;
      if (at.whole) break;
    }
    Object.assign(at, { whole: true, keepsOnlyListed: false, children: at.whole ? at.children : new Map() });
  }
  for (const tokens of pointerTokens(ignoredPaths, "ignored")) {
    let at: MutableFilter | undefined = root;
    for (const token of tokens) {
      // A member outside every included path is dropped already; nothing to ignore there.
      if (at.keepsOnlyListed && !at.children.has(token)) {
        at = undefined;
        break;
      }
      let child: MutableFilter | undefined = at.children.get(token);
      if (child === undefined) at.children.set(token, (child = node(false)));
      at = child;
    }
    if (at !== undefined) at.ignored = true;
  }
  if (normalise !== undefined) root.normalise = normalise;
  return root.children.size === 0 && normalise === undefined ? null : prune(root);
}

function pointerTokens(pointers: readonly string[], list: "ignored" | "included"): string[][] {
  if (!Array.isArray(pointers)) {
    throw new CanonicalJsonError("invalid_pointer", `${list} paths must be an array of JSON pointers`);
  }
  return pointers.map((pointer) => {
    const tokens = validateJsonPointer(pointer);
    if (tokens.length === 0) {
      throw new CanonicalJsonError("invalid_pointer", `the empty JSON pointer "" (whole document) cannot be ${list}`);
    }
    return tokens;
  });
}

// Below an ignored node nothing else can match, so its children are dropped.
function prune(at: MutableFilter): MutableFilter {
  if (at.ignored) at.children.clear();
  for (const child of at.children.values()) prune(child);
  return at;
}
