import { z } from "zod";

/**
 * The kinds of value a variable holds. Each is a zod schema from the raw text (undefined
 * when unset) to its value, and the words the reference shows for it. Empty or blank text
 * counts as unset everywhere, so `WEIR_PG_POOL_MAX=` means the default, never 0 or "".
 */
export interface Kind<T> {
  schema: z.ZodType<T, string | undefined>;
  /** What the value looks like, for the reference: "integer ≥ 1", "0 or 1", "URL"... */
  type: string;
  /** The default as the reference shows it ("unset" when there is none). */
  defaultText: string;
}

const unsetIfBlank = (raw: unknown) => (typeof raw === "string" && raw.trim() === "" ? undefined : raw);

function kind<T>(inner: z.ZodType<T | undefined, string | undefined>, type: string, defaultText: string): Kind<T> {
  return { schema: z.preprocess(unsetIfBlank, inner) as unknown as z.ZodType<T, string | undefined>, type, defaultText };
}

const INTEGER = /^[+-]?\d{1,16}$/;
const DECIMAL = /^[+-]?(\d{1,16}(\.\d{0,16})?|\.\d{1,16})$/;

function range(min: number, max: number | undefined): string {
  return max === undefined ? `≥ ${min}` : `${min} to ${max}`;
}

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(INTEGER, { error: "must be a whole number" })
    .transform(Number)
    .pipe(z.number().min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }));

/** A whole number in [min, max]; `fallback` when unset. */
export function integer(fallback: number, options: { min?: number; max?: number; defaultText?: string } = {}): Kind<number> {
  const min = options.min ?? 1;
  return kind(wholeNumber(min, options.max).optional().transform((value) => value ?? fallback), `integer ${range(min, options.max)}`, options.defaultText ?? `\`${fallback}\``);
}

/** A whole number in [min, max], or undefined when unset: the reader derives the default (described by `defaultText`). */
export function optionalInteger(defaultText: string, options: { min?: number; max?: number } = {}): Kind<number | undefined> {
  const min = options.min ?? 1;
  return kind(wholeNumber(min, options.max).optional(), `integer ${range(min, options.max)}`, defaultText);
}

/** A number with `min < value ≤ max` (exclusive floor) or `min ≤ value ≤ max`. */
export function decimal(fallback: number, options: { above?: number; min?: number; max: number; defaultText?: string }): Kind<number> {
  let number = z.number();
  if (options.above !== undefined) number = number.gt(options.above, { error: `must be more than ${options.above}` });
  if (options.min !== undefined) number = number.min(options.min, { error: `must be at least ${options.min}` });
  number = number.max(options.max, { error: `must be at most ${options.max}` });
  const parsed = z.string().trim().regex(DECIMAL, { error: "must be a number" }).transform(Number).pipe(number);
  const low = options.above !== undefined ? `more than ${options.above}` : `at least ${options.min}`;
  return kind(parsed.optional().transform((value) => value ?? fallback), `number, ${low}, at most ${options.max}`, options.defaultText ?? `\`${fallback}\``);
}

/** `0` or `1`. */
export function flag(fallback: boolean): Kind<boolean> {
  const parsed = z.enum(["0", "1"], { error: 'must be 0 or 1' }).transform((value) => value === "1");
  return kind(parsed.optional().transform((value) => value ?? fallback), "`0` or `1`", fallback ? "`1`" : "`0`");
}

/** One of a few words. */
export function choice<const W extends readonly [string, ...string[]]>(words: W, fallback: W[number]): Kind<W[number]> {
  const parsed = z.enum(words, { error: `must be one of ${words.join(", ")}` });
  return kind(parsed.optional().transform((value) => value ?? fallback), words.map((w) => `\`${w}\``).join(" or "), `\`${fallback}\``);
}

/** Any text; undefined when unset unless there is a fallback. */
export function text(options: { min?: number; defaultText?: string } = {}): Kind<string | undefined> {
  let parsed = z.string();
  if (options.min !== undefined) parsed = parsed.min(options.min, { error: `must be at least ${options.min} characters` });
  return kind(parsed.optional(), options.min ? `text, at least ${options.min} characters` : "text", options.defaultText ?? "unset");
}

/** Text with a default. */
export function textOr(fallback: string): Kind<string> {
  return kind(z.string().optional().transform((value) => value ?? fallback), "text", `\`${fallback}\``);
}

/** An absolute URL with one of `protocols` (e.g. ["http:", "https:"]). */
export function url(protocols: readonly string[], defaultText = "unset"): Kind<string | undefined> {
  const parsed = z
    .string()
    .trim()
    .refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), { error: `must be a ${protocols.map((p) => p.slice(0, -1)).join(" or ")} URL` });
  return kind(parsed.optional(), `${protocols.map((p) => p.slice(0, -1)).join(" or ")} URL`, defaultText);
}

/** Comma-separated absolute URLs with one of `protocols`; empty entries are dropped; none when unset. */
export function urls(protocols: readonly string[], defaultText = "none"): Kind<string[]> {
  const names = protocols.map((p) => p.slice(0, -1)).join(" or ");
  const parsed = z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol)), { error: `must be ${names} URLs, separated by commas` });
  return kind(parsed.optional().transform((value) => value ?? []), `comma-separated ${names} URLs`, defaultText);
}

/** Comma-separated words; empty entries are dropped. */
export function list(defaultText = "none"): Kind<string[]> {
  const parsed = z.string().transform((value) =>
    value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  );
  return kind(parsed.optional().transform((value) => value ?? []), "comma-separated list", defaultText);
}

const DURATION = /^(\d{1,6})([dhm]?)$/;
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, "": 86_400_000 };

/** "7d", "36h", "90m" or a bare number of days, in ms; `least`, a duration too, is the shortest accepted. */
export function duration(fallback: string, least?: string): Kind<number> {
  const shortest = least === undefined ? 1 : parseDuration(least);
  const parsed = z
    .string()
    .trim()
    .regex(DURATION, { error: "must be a duration like 7d, 36h or 90m" })
    .transform((value) => DURATION.exec(value)!)
    .refine((found) => Number(found[1]) > 0, { error: "must be longer than 0" })
    .transform((found) => Number(found[1]) * UNIT_MS[found[2]!]!)
    .refine((ms) => ms >= shortest, { error: `must be at least ${least}` });
  return kind(parsed.optional().transform((value) => value ?? parseDuration(fallback)), "duration: `7d`, `36h`, `90m` or days", `\`${fallback}\``);
}

function parseDuration(value: string): number {
  const found = DURATION.exec(value)!;
  return Number(found[1]) * UNIT_MS[found[2]!]!;
}
