import { VARIABLES, type ValueOf, type VariableName } from "./variables";

export { VARIABLES, type VariableName } from "./variables";

type Env = Record<string, string | undefined>;

/** One or more variables hold values weir cannot use; the message names each one. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} variables are not valid:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

function parse<N extends VariableName>(name: N, raw: string | undefined): { value: ValueOf<N> } | { problem: string } {
  const result = VARIABLES[name].schema.safeParse(raw);
  if (result.success) return { value: result.data as ValueOf<N> };
  const problem = `${name} ${result.error.issues[0]?.message ?? "is not valid"}`;
  return { problem: VARIABLES[name].secret ? `${problem} (value not shown)` : `${problem}, got "${raw}"` };
}

const parsed = new Map<VariableName, { raw: string | undefined; value: unknown }>();

/**
 * A variable's value, parsed by its declaration. Reads process.env each time, so a test
 * that sets a variable sees it; the parse is cached per raw text, so a read costs one
 * lookup. Throws ConfigError naming the variable when its value is not valid.
 */
export function setting<N extends VariableName>(name: N): ValueOf<N> {
  const raw = process.env[name];
  const cached = parsed.get(name);
  if (cached && cached.raw === raw) return cached.value as ValueOf<N>;
  const outcome = parse(name, raw);
  if ("problem" in outcome) throw new ConfigError([outcome.problem]);
  parsed.set(name, { raw, value: outcome.value });
  return outcome.value;
}

/** What a variable is when unset. */
export function defaultOf<N extends VariableName>(name: N): ValueOf<N> {
  return VARIABLES[name].schema.parse(undefined) as ValueOf<N>;
}

export type Config = { [N in VariableName]: ValueOf<N> };

/** Every variable parsed at once: at start, so that a bad value stops the process with every problem named. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const config: Partial<Record<VariableName, unknown>> = {};
  for (const name of Object.keys(VARIABLES) as VariableName[]) {
    const outcome = parse(name, env[name]);
    if ("problem" in outcome) problems.push(outcome.problem);
    else config[name] = outcome.value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as Config;
}
