/**
 * The console's one home for times: every instant shown and every instant typed goes through here,
 * in the zone the viewer chose (UTC, or the browser's own zone, kept in a cookie so that server
 * components render it too). Pure functions of (instant, zone): server and client render alike.
 */
export const TIME_ZONE_COOKIE = "weir-tz";
export const UTC = "UTC";

export interface ZonePreference {
  mode: "utc" | "local";
  /** The IANA zone times are shown in: "UTC", or the browser's zone when local. */
  zone: string;
}

export const UTC_PREFERENCE: ZonePreference = { mode: "utc", zone: UTC };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
    });
    // A handful of zones at most (UTC and the viewers' own): never more than a small map.
    if (formatters.size < 64) formatters.set(zone, formatter);
  }
  return formatter;
}

export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The cookie's value: "utc", or "local:<IANA zone>" (the browser's zone when it was last seen). */
export function parseZonePreference(value: string | undefined): ZonePreference {
  if (!value?.startsWith("local:")) return UTC_PREFERENCE;
  let zone: string;
  try {
    zone = decodeURIComponent(value.slice("local:".length));
  } catch {
    return UTC_PREFERENCE;
  }
  return isTimeZone(zone) ? { mode: "local", zone } : UTC_PREFERENCE;
}

export const serializeZonePreference = (pref: ZonePreference) => (pref.mode === "utc" ? "utc" : `local:${encodeURIComponent(pref.zone)}`);

interface WallTime {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  zoneName: string;
}

/**
 * Wall times already worked out, per zone and second: formatToParts is the dear part of showing a
 * time, and a page shows the same instants many times (the services list's last activities fall in
 * the same minute, a chart's buckets on every render). A pure function of its key; cleared when full.
 */
const wallTimes = new Map<string, WallTime>();
const WALL_TIMES_MAX = 4096;

function wallTime(ms: number, zone: string): WallTime {
  const key = `${zone} ${Math.floor(ms / 1000)}`;
  let w = wallTimes.get(key);
  if (!w) {
    w = Object.freeze(computeWallTime(ms, zone));
    if (wallTimes.size >= WALL_TIMES_MAX) wallTimes.clear();
    wallTimes.set(key, w);
  }
  return w;
}

function computeWallTime(ms: number, zone: string): WallTime {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(zone).formatToParts(ms)) parts[part.type] = part.value;
  return {
    year: parts.year!.padStart(4, "0"),
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour === "24" ? "00" : parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
    zoneName: parts.timeZoneName ?? zone,
  };
}

const toMs = (value: Date | string | number) => (typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : value.getTime());

/** "2026-11-27 03:12:00 UTC", "2026-11-26 19:12:00 PST": the zone is always named. */
export function formatInstant(value: Date | string | number | null | undefined, zone: string = UTC): string {
  if (value === null || value === undefined) return "–";
  const ms = toMs(value);
  if (Number.isNaN(ms)) return "–";
  const w = wallTime(ms, zone);
  return `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}:${w.second} ${w.zoneName}`;
}

const FRACTION = /\.(\d{1,9})/;

/** "2026-11-27 03:12:00.123456 UTC": the journal's own precision (microseconds, as its ISO text carries them). */
export function formatPrecise(iso: string, zone: string = UTC): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "–";
  const w = wallTime(ms, zone);
  const fraction = FRACTION.exec(iso)?.[1];
  return `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}:${w.second}${fraction ? `.${fraction}` : ""} ${w.zoneName}`;
}

/** "2026-11-27 03:12 UTC": a minute, as gap notices and chart buckets name it. */
export function formatMinute(value: Date | string | number, zone: string = UTC): string {
  const w = wallTime(toMs(value), zone);
  return `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute} ${w.zoneName}`;
}

/** A chart bucket's start: time of day for short steps, date and time from hourly steps up (the zone is named once, by the chart). */
export function formatBucket(t: number, stepSeconds: number, zone: string = UTC): string {
  const w = wallTime(t, zone);
  return stepSeconds >= 3_600 ? `${w.month}-${w.day} ${w.hour}:${w.minute}` : `${w.hour}:${w.minute}`;
}

/** The zone's short name at an instant: "UTC", "PST", "GMT+1". */
export const zoneName = (zone: string, at: number = Date.now()) => wallTime(at, zone).zoneName;

/** "YYYY-MM-DDTHH:mm" (seconds when not zero): the value a datetime-local input shows for an instant in a zone. */
export function toInputInstant(value: Date | string | number | undefined, zone: string = UTC): string {
  if (value === undefined) return "";
  const ms = toMs(value);
  if (Number.isNaN(ms)) return "";
  const w = wallTime(ms, zone);
  const minute = `${w.year}-${w.month}-${w.day}T${w.hour}:${w.minute}`;
  return w.second === "00" ? minute : `${minute}:${w.second}`;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const w = wallTime(ms, zone);
  const asUtc = Date.UTC(Number(w.year), Number(w.month) - 1, Number(w.day), Number(w.hour), Number(w.minute), Number(w.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a datetime-local value names in a zone, or undefined when it is no such value.
 * A wall time skipped by a DST change resolves forward; a repeated one to its first occurrence.
 */
export function fromInputInstant(text: string, zone: string = UTC): Date | undefined {
  const m = WALL.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(asUtc).getUTCDate() !== day) return undefined;
  const first = asUtc - offsetAt(asUtc, zone);
  const second_ = asUtc - offsetAt(first, zone);
  const earliest = Math.min(first, second_);
  return new Date(offsetAt(earliest, zone) === asUtc - earliest ? earliest : Math.max(first, second_));
}

/** An instant as a URL's from/to carries it: UTC, named by its "Z", to the minute when it has no seconds. */
export function instantParam(date: Date): string {
  const iso = date.toISOString();
  return date.getTime() % 60_000 === 0 ? `${iso.slice(0, 16)}Z` : `${iso.slice(0, 19)}Z`;
}

/**
 * What an instant input sends: the instant its text names in the zone ("2025-01-31T22:00Z"),
 * or the text as typed when it names none, so that the server refuses it with the field's error.
 */
export function inputToParam(text: string, zone: string): string {
  if (text === "") return "";
  const date = fromInputInstant(text, zone);
  return date ? instantParam(date) : text;
}
