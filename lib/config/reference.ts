import { GROUPS, VARIABLES, type Variable } from "./variables";

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** Variables read by the standard libraries weir uses, not by weir's schema: named here so the page is whole. */
const OTHERS: Partial<Record<keyof typeof GROUPS, string>> = {
  journal:
    "`OTEL_*`: the standard OpenTelemetry variables. `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_TRACES_EXPORTER=otlp`) turns on one span per decision, exported over OTLP/HTTP; `OTEL_SERVICE_NAME`, sampler, headers and the rest as the specification says. See [tracing.md](tracing.md).",
};

/** docs/configuration.md, generated from the declarations in variables.ts (`npm run docs:config`). */
export function renderReference(): string {
  const lines = [
    "<!-- Generated from lib/config/variables.ts by `npm run docs:config`; edit that file, not this one. -->",
    "# Configuration",
    "",
    "weir reads its settings from environment variables, all declared in one place",
    "(`lib/config/variables.ts`) with their kind, default and meaning; this page is generated from it.",
    "",
    "- An empty or blank value is the same as unset: the default applies.",
    "- Every variable is checked when the server or the CLI starts: a value weir cannot use stops",
    "  it with a message naming each bad variable (a secret's value is never printed).",
    "- Unless a variable says \"read once at start\", a node reads it when it needs it; still,",
    "  change settings by restarting nodes, not by relying on that.",
    "",
    "| section | variables |",
    "| --- | --- |",
  ];
  const entries = Object.entries(VARIABLES) as [string, Variable<unknown>][];
  for (const [group, title] of Object.entries(GROUPS)) {
    const names = entries.filter(([, v]) => v.group === group).map(([name]) => `\`${name}\``);
    lines.push(`| [${title}](#${anchorOf(title)}) | ${names.join(", ")} |`);
  }
  for (const [group, title] of Object.entries(GROUPS) as [keyof typeof GROUPS, string][]) {
    lines.push("", `## ${title}`, "", "| variable | default | value | meaning |", "| --- | --- | --- | --- |");
    for (const [name, v] of entries.filter(([, v]) => v.group === group)) {
      lines.push(`| \`${name}\` | ${cell(v.defaultText)} | ${cell(v.type)} | ${cell(v.description)} |`);
    }
    const others = OTHERS[group];
    if (others) lines.push("", others);
  }
  return `${lines.join("\n")}\n`;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}
