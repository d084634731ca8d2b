import { describe, expect, it } from "vitest";
import {
  formatBucket,
  formatInstant,
  formatMinute,
  formatPrecise,
  fromInputInstant,
  inputToParam,
  parseZonePreference,
  serializeZonePreference,
  toInputInstant,
  zoneName,
} from "./time-zone";

const LA = "America/Los_Angeles";
const winter = Date.UTC(2026, 10, 27, 3, 12, 5); // 2026-11-27 03:12:05 UTC = 19:12:05 PST the day before
const summer = Date.UTC(2026, 6, 1, 12, 0, 0); // 05:00 PDT

describe("times shown", () => {
  it("name their zone, UTC by default", () => {
    expect(formatInstant(winter)).toBe("2026-11-27 03:12:05 UTC");
    expect(formatInstant(new Date(winter).toISOString(), LA)).toBe("2026-11-26 19:12:05 PST");
    expect(formatInstant(new Date(summer), LA)).toBe("2026-07-01 05:00:00 PDT");
    expect(formatInstant(null)).toBe("–");
    expect(formatInstant("not a time")).toBe("–");
  });

  it("keep the journal's microseconds and name minutes and chart buckets in the zone", () => {
    expect(formatPrecise("2026-11-27T03:12:05.123456Z", LA)).toBe("2026-11-26 19:12:05.123456 PST");
    expect(formatPrecise("2026-11-27T03:12:05Z")).toBe("2026-11-27 03:12:05 UTC");
    expect(formatMinute("2026-11-27T03:12:00Z", "Asia/Kolkata")).toBe("2026-11-27 08:42 GMT+5:30");
    expect(formatBucket(winter, 3_600, LA)).toBe("11-26 19:12");
    expect(formatBucket(winter, 60)).toBe("03:12");
    expect(zoneName(LA, summer)).toBe("PDT");
  });

  it("come out the same when shown again, per zone and second (the wall times are remembered)", () => {
    for (let round = 0; round < 2; round++) {
      expect(formatInstant(winter + 999)).toBe("2026-11-27 03:12:05 UTC");
      expect(formatInstant(winter + 1000)).toBe("2026-11-27 03:12:06 UTC");
      expect(formatInstant(winter, LA)).toBe("2026-11-26 19:12:05 PST");
      expect(formatInstant(winter - 1)).toBe("2026-11-27 03:12:04 UTC");
    }
  });
});

describe("times typed", () => {
  it("show an instant as the zone's wall time, and read it back as the same instant", () => {
    expect(toInputInstant(new Date(winter), LA)).toBe("2026-11-26T19:12:05");
    expect(toInputInstant(Date.UTC(2026, 10, 27, 3, 12), LA)).toBe("2026-11-26T19:12");
    expect(toInputInstant(undefined)).toBe("");
    expect(fromInputInstant("2026-11-26T19:12:05", LA)?.getTime()).toBe(winter);
    expect(fromInputInstant("2026-11-27T03:12:05")?.getTime()).toBe(winter);
    expect(fromInputInstant("2026-07-01T05:00", LA)?.getTime()).toBe(summer);
  });

  it("resolve a wall time a DST change skips forward, and a repeated one to its first occurrence", () => {
    // 2026-03-08 02:30 does not exist in Los Angeles (clocks go 02:00 PST -> 03:00 PDT).
    expect(fromInputInstant("2026-03-08T02:30", LA)?.toISOString()).toBe("2026-03-08T10:30:00.000Z");
    // 2026-11-01 01:30 happens twice; the first is PDT (UTC-7).
    expect(fromInputInstant("2026-11-01T01:30", LA)?.toISOString()).toBe("2026-11-01T08:30:00.000Z");
  });

  it("refuse what names no time, and send the instant or the text as typed", () => {
    for (const bad of ["yesterday", "2026-02-30T10:00", "2026-13-01T10:00", "2026-01-01T24:00", "2026-01-01 10:00"]) expect(fromInputInstant(bad, LA)).toBeUndefined();
    expect(inputToParam("2026-11-26T19:12", LA)).toBe("2026-11-27T03:12Z");
    expect(inputToParam("2026-11-26T19:12:05", LA)).toBe("2026-11-27T03:12:05Z");
    expect(inputToParam("2026-11-27T03:12", "UTC")).toBe("2026-11-27T03:12Z");
    expect(inputToParam("yesterday", LA)).toBe("yesterday");
    expect(inputToParam("", LA)).toBe("");
  });
});

describe("the preference cookie", () => {
  it("round-trips, and anything else is UTC", () => {
    expect(parseZonePreference(serializeZonePreference({ mode: "local", zone: LA }))).toEqual({ mode: "local", zone: LA });
    expect(parseZonePreference("utc")).toEqual({ mode: "utc", zone: "UTC" });
    expect(parseZonePreference(undefined)).toEqual({ mode: "utc", zone: "UTC" });
    expect(parseZonePreference("local:Not/AZone")).toEqual({ mode: "utc", zone: "UTC" });
    expect(parseZonePreference("local:%E0%A4%A")).toEqual({ mode: "utc", zone: "UTC" });
  });
});
