import { z } from "zod";
import { textSchema } from "./common";

/** A search param: the first value when repeated, and "" treated as absent. */
export const param = (value: unknown) => {
  const first = Array.isArray(value) ? value[0] : value;
  return first === "" || first === null ? undefined : first;
};

const ZONED = /(Z|[+-]\d\d:?\d\d)$/i;

/**
 * An instant from a URL or form: ISO 8601 ("2025-01-31T22:00Z", what the console's time inputs
 * send, lib/views/time-zone.ts), or a "YYYY-MM-DDTHH:mm" without a zone, read as UTC.
 */
export const instantSchema = z.preprocess(
  param,
  z
    .string()
    .max(40)
    .transform((text, ctx) => {
      const date = new Date(ZONED.test(text) ? text : `${text}Z`);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: "must be a date and time such as 2025-01-31T14:00" });
        return z.NEVER;
      }
      return date;
    })
    .optional(),
);

export const optionalText = (max: number) => z.preprocess(param, textSchema(max).optional());

export const optionalInt = (min: number, max: number) =>
  z.preprocess(param, z.coerce.number().int().min(min).max(max).optional());

/** Opaque keyset cursor: base64url of a JSON array. */
export const cursorParam = z.preprocess(param, z.string().max(2048).optional());

export type SearchParams = Record<string, string | string[] | undefined>;

/** The text the URL gave for each filter, kept as typed so that a bad value can be corrected, not retyped. */
export function rawValues(params: SearchParams, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const first = param(params[name]);
    if (typeof first === "string") out[name] = first.slice(0, 512);
  }
  return out;
}
