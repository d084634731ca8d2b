"use client";
import { useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import {
  formatInstant,
  formatMinute,
  formatPrecise,
  inputToParam,
  serializeZonePreference,
  TIME_ZONE_COOKIE,
  toInputInstant,
  UTC_PREFERENCE,
  zoneName,
  type ZonePreference,
} from "@/lib/views/time-zone";

interface ZoneContext {
  preference: ZonePreference;
  choose: (mode: ZonePreference["mode"]) => void;
}

const Context = createContext<ZoneContext>({ preference: UTC_PREFERENCE, choose: () => {} });

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

function keep(preference: ZonePreference) {
  document.cookie = `${TIME_ZONE_COOKIE}=${serializeZonePreference(preference)}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * The viewer's time zone for every time on the page. It starts from the cookie the server rendered
 * with (so hydration matches); when local times were chosen and the browser's zone has changed since
 * (a laptop that travelled), the cookie follows and the server's part of the page renders again.
 */
export function TimeZoneProvider({ initial, children }: { initial: ZonePreference; children: ReactNode }) {
  const router = useRouter();
  const [preference, setPreference] = useState(initial);
  // A new rendering from the server (after a switch or a refresh) carries the cookie's preference.
  const [rendered, setRendered] = useState(initial);
  if (rendered.mode !== initial.mode || rendered.zone !== initial.zone) {
    setRendered(initial);
    setPreference(initial);
  }
  useEffect(() => {
    if (initial.mode !== "local" || initial.zone === browserZone()) return;
    keep({ mode: "local", zone: browserZone() });
    router.refresh();
  }, [initial, router]);
  const value = useMemo<ZoneContext>(
    () => ({
      preference,
      choose: (mode) => {
        const next: ZonePreference = mode === "utc" ? UTC_PREFERENCE : { mode: "local", zone: browserZone() };
        keep(next);
        setPreference(next);
        router.refresh();
      },
    }),
    [preference, router],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** The zone times are shown in ("UTC" or an IANA zone). */
export const useTimeZone = () => useContext(Context).preference.zone;

const FORMATS = { second: formatInstant, minute: formatMinute, micro: formatPrecise };

/**
 * An instant in the viewer's zone, named: "2026-11-26 19:12:00 PST"; to the minute, or to the
 * microsecond of a journal entry's ISO text.
 */
export function Instant({ value, precision = "second" }: { value: Date | string | null | undefined; precision?: keyof typeof FORMATS }) {
  const zone = useTimeZone();
  if (value === null || value === undefined) return <>–</>;
  const iso = typeof value === "string" ? value : value.toISOString();
  return <time dateTime={iso}>{FORMATS[precision](iso, zone)}</time>;
}

/** The viewer's zone by its short name ("UTC", "PST"), for labels such as "From (PST)". */
export function ZoneName() {
  return <>{zoneName(useTimeZone())}</>;
}

/** The switch in the header: times in UTC or in the browser's zone. */
export function TimeZoneToggle() {
  const { preference, choose } = useContext(Context);
  return (
    <div className="theme-toggle" role="group" aria-label="Time zone">
      <button type="button" aria-pressed={preference.mode === "utc"} onClick={() => choose("utc")}>
        UTC
      </button>
      <button type="button" aria-pressed={preference.mode === "local"} onClick={() => choose("local")} title="Your browser's time zone">
        Local{preference.mode === "local" ? ` (${zoneName(preference.zone)})` : ""}
      </button>
    </div>
  );
}

/**
 * A time filter: the viewer types a wall time in their zone; the form sends the instant it names
 * ("2025-01-31T22:00Z", a hidden field under the input's name). A value the server refused stays as
 * typed, in a text input under the name itself, so that it can be corrected.
 */
export function InstantInput({
  name,
  defaultValue,
  invalidText,
  required,
  placeholder,
  ...aria
}: {
  name: string;
  defaultValue?: Date | string;
  invalidText?: string;
  required?: boolean;
  placeholder?: string;
  id?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}) {
  const zone = useTimeZone();
  const [text, setText] = useState<string | null>(null);
  if (invalidText !== undefined) return <input {...aria} name={name} defaultValue={invalidText} placeholder={placeholder} required={required} />;
  const shown = text ?? toInputInstant(defaultValue, zone);
  return (
    <>
      <input {...aria} type="datetime-local" value={shown} onChange={(e) => setText(e.target.value)} placeholder={placeholder} required={required} />
      <input type="hidden" name={name} value={inputToParam(shown, zone)} />
    </>
  );
}
