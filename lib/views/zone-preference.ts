import { cookies } from "next/headers";
import { parseZonePreference, TIME_ZONE_COOKIE, type ZonePreference } from "./time-zone";

/** The viewer's time zone preference, from the cookie the header's switch keeps. */
export async function zonePreference(): Promise<ZonePreference> {
  return parseZonePreference((await cookies()).get(TIME_ZONE_COOKIE)?.value);
}

/** The zone a server component shows times in ("UTC" or the viewer's own). */
export const displayZone = async () => (await zonePreference()).zone;
