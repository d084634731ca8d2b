/**
 * The docs link check (`npm run lint` runs it): every relative link, image and #anchor in README.md,
 * docs/**\/*.md and the packages' and examples' READMEs resolves (anchors by GitHub's heading
 * slugs), and docs/README.md indexes every page.
 * Offline on purpose: other sites are not fetched. `tsx scripts/docs-links.ts [root]` exits 1 on a break.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import GithubSlugger from "github-slugger";
import { marked, type Token } from "marked";

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
  pending?: true;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Pages being written while the book is assembled: a link to one of these that does not exist yet
 * is reported as pending, not broken. Empty once they have landed: every page of the book is on main.
 */
export const PENDING_PAGES: ReadonlySet<string> = new Set<string>([]);
const HTML_ANCHOR = /\b(?:id|name)="([^"]+)"/g;
const HTML_LINK = /\b(?:href|src)="([^"]+)"/g;

/** README.md, every Markdown file under docs/, and the README of each package and example, relative to root. */
export function docFiles(root: string): string[] {
  const docs = existsSync(path.join(root, "docs"))
    ? readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
        .filter((name) => name.endsWith(".md"))
        .map((name) => path.join("docs", name))
    : [];
  const readmes = ["packages", "examples"].flatMap((dir) =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir)).map((name) => path.join(dir, name, "README.md")).filter((file) => existsSync(path.join(root, file)))
      : [],
  );
  return [...(existsSync(path.join(root, "README.md")) ? ["README.md"] : []), ...docs.sort(), ...readmes.sort()];
}

function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      if (token.type === "html") return "";
      if ("tokens" in token && token.tokens) return plainText(token.tokens);
      return "text" in token ? String(token.text) : "";
    })
    .join("");
}

function htmlAttributes(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((match) => match[1]!);
}

/** The anchors a Markdown text offers: GitHub's heading slugs (with -1, -2 for repeats) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === "heading") anchors.add(slugger.slug(plainText(token.tokens)));
    if (token.type === "html") for (const id of htmlAttributes(token.raw, HTML_ANCHOR)) anchors.add(id);
  });
  return anchors;
}

/** Every link and image target of a Markdown text, code blocks and code spans left out. */
export function linksOf(markdown: string): string[] {
  const links: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === "link" || token.type === "image") links.push(token.href);
    if (token.type === "html") links.push(...htmlAttributes(token.raw, HTML_LINK));
  });
  return links;
}

function lineOf(text: string, target: string): number {
  const at = text.indexOf(`(${target}`);
  const index = at >= 0 ? at : text.indexOf(target);
  return index < 0 ? 0 : text.slice(0, index).split("\n").length;
}

/** Broken links, and (marked `pending`) links to pages of PENDING_PAGES that do not exist yet. */
export function checkLinks(root: string, files = docFiles(root), pending: ReadonlySet<string> = new Set()): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) anchorCache.set(file, (anchors = anchorsOf(readFileSync(file, "utf8"))));
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    const absolute = path.join(root, file);
    const text = readFileSync(absolute, "utf8");
    for (const target of linksOf(text)) {
      if (EXTERNAL.test(target)) continue;
      const report = (reason: string) => broken.push({ file, line: lineOf(text, target), target, reason });
      const hashAt = target.indexOf("#");
      const pathPart = decodeURIComponent((hashAt < 0 ? target : target.slice(0, hashAt)).split("?")[0]!);
      const anchor = hashAt < 0 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
      const resolved = pathPart === "" ? absolute : pathPart.startsWith("/") ? path.join(root, pathPart) : path.resolve(path.dirname(absolute), pathPart);
      if (!resolved.startsWith(path.resolve(root))) {
        report("points outside the repository");
        continue;
      }
      if (!existsSync(resolved)) {
        const relative = path.relative(root, resolved);
        report(`no file ${relative}`);
        if (pending.has(relative)) broken[broken.length - 1]!.pending = true;
        continue;
      }
      if (anchor === undefined || anchor === "" || !resolved.endsWith(".md") || statSync(resolved).isDirectory()) continue;
      if (!anchorsIn(resolved).has(anchor)) report(`no heading #${anchor} in ${path.relative(root, resolved)}`);
    }
  }
  return broken;
}

/** Pages under docs/ that docs/README.md, the book's index, does not link to. */
export function unindexedPages(root: string): string[] {
  const index = path.join(root, "docs", "README.md");
  if (!existsSync(index)) return [];
  const linked = new Set(
    linksOf(readFileSync(index, "utf8"))
      .filter((target) => !EXTERNAL.test(target))
      .map((target) => path.relative(root, path.resolve(path.dirname(index), decodeURIComponent(target.split("#")[0]!)))),
  );
  return docFiles(root).filter((file) => file.startsWith("docs/") && file !== "docs/README.md" && !linked.has(file));
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const root = path.resolve(process.argv[2] ?? ".");
  const files = docFiles(root);
  const found = checkLinks(root, files, PENDING_PAGES);
  const pending = found.filter((link) => link.pending);
  const broken: BrokenLink[] = [
    ...found.filter((link) => !link.pending),
    ...unindexedPages(root).map((file) => ({ file: "docs/README.md", line: 0, target: file, reason: "a page the index does not link to" })),
  ];
  for (const link of pending) console.log(`${link.file}:${link.line}: ${link.target}: pending, being written`);
  for (const link of broken) console.error(`${link.file}:${link.line}: ${link.target}: ${link.reason}`);
  console.log(`docs links: ${files.length} files, ${broken.length} broken, ${pending.length} pending`);
  process.exitCode = broken.length === 0 ? 0 : 1;
}
