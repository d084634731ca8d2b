import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anchorsOf, checkLinks, docFiles, unindexedPages } from "./docs-links";

let root: string;

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "weir-docs-links-"));
  write("docs/guide.md", "# Guide\n\n## What is hashed: `ignoredPaths` and included paths\n\n## Setup\n\n## Setup\n\n<a id=\"raw-anchor\"></a>\n");
  write("docs/shot.png", "png");
  write("lib/thing.ts", "export {};\n");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the docs link check", () => {
  it("makes GitHub's heading slugs: code spans kept as text, punctuation dropped, repeats numbered", () => {
    const anchors = anchorsOf("# Guide\n\n## What is hashed: `ignoredPaths` and included paths\n\n## Setup\n\n## Setup\n\n## Tail latency (p99)\n");
    expect([...anchors]).toEqual(["guide", "what-is-hashed-ignoredpaths-and-included-paths", "setup", "setup-1", "tail-latency-p99"]);
  });

  it("passes links to files, folders, images, headings and HTML anchors that exist", () => {
    write(
      "README.md",
      [
        "[guide](docs/guide.md), [hashed](docs/guide.md#what-is-hashed-ignoredpaths-and-included-paths),",
        "[second setup](docs/guide.md#setup-1), [raw](docs/guide.md#raw-anchor), [code](lib/thing.ts#L1),",
        "[folder](lib), [self](#weir), ![shot](docs/shot.png), <img src=\"docs/shot.png\">, [site](https://example.com/x#y)",
        "",
        "# weir",
        "",
        "```sh",
        "[not a link](nowhere.md)",
        "```",
      ].join("\n"),
    );
    expect(checkLinks(root)).toEqual([]);
  });

  it("catches a link to a file that does not exist", () => {
    write("README.md", "# weir\n\nSee [the runbook](docs/runbok.md).\n");
    expect(checkLinks(root)).toEqual([{ file: "README.md", line: 3, target: "docs/runbok.md", reason: "no file docs/runbok.md" }]);
  });

  it("catches an anchor that no heading makes, in another file and in the same one", () => {
    write("docs/other.md", "# Other\n\n[gone](guide.md#set-up) and [here](#nope) and [fine](guide.md#setup)\n");
    expect(checkLinks(root, docFiles(root))).toEqual([
      { file: "docs/other.md", line: 3, target: "guide.md#set-up", reason: "no heading #set-up in docs/guide.md" },
      { file: "docs/other.md", line: 3, target: "#nope", reason: "no heading #nope in docs/other.md" },
    ]);
  });

  it("catches a broken link in a table and in raw HTML, and one that leaves the repository", () => {
    write("docs/table.md", '| a | b |\n|---|---|\n| [x](missing.md) | <img src="nope.png"> |\n\n[up](../../etc/passwd)\n');
    expect(checkLinks(root, ["docs/table.md"]).map((link) => link.target)).toEqual(["missing.md", "nope.png", "../../etc/passwd"]);
  });

  it("checks README.md, every page under docs/ and the README of each package and example", () => {
    write("README.md", "# weir\n");
    write("docs/ops/runbook.md", "# Runbook\n");
    write("packages/client/README.md", "# client\n");
    write("examples/nats-consumer/README.md", "# example\n");
    write("examples/nats-consumer/notes.md", "# not a README\n");
    expect(docFiles(root)).toEqual(["README.md", "docs/guide.md", "docs/ops/runbook.md", "examples/nats-consumer/README.md", "packages/client/README.md"]);
  });

  it("marks a missing page that is being written as pending, and only that one", () => {
    write("README.md", "# weir\n\n[config](docs/configuration.md) and [gone](docs/gone.md)\n");
    const found = checkLinks(root, ["README.md"], new Set(["docs/configuration.md"]));
    expect(found.map((link) => [link.target, link.pending ?? false])).toEqual([
      ["docs/configuration.md", true],
      ["docs/gone.md", false],
    ]);
  });

  it("names the pages under docs/ that the book's index does not link to", () => {
    write("docs/README.md", "# Book\n\n- [Guide](guide.md)\n- [Runbook](ops/runbook.md#top)\n");
    write("docs/ops/runbook.md", "# Top\n");
    write("docs/orphan.md", "# Orphan\n");
    expect(unindexedPages(root)).toEqual(["docs/orphan.md"]);
  });
});
