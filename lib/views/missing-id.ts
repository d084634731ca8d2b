/** The query parameters that name the thing a console page shows, most specific first. */
const ID_PARAMS = ["id", "key", "claim", "message"] as const;
/** Pages whose second path segment is the id of what they show. */
const COLLECTIONS = new Set(["services", "groups", "reset"]);

/**
 * The id a console address asked for that was not found: a key, claim or message from the query,
 * else the service, group or reset of the path ("/services/orders" -> "orders"). Null when the
 * address names none.
 */
export function missingIdOf(pathname: string, search: URLSearchParams): string | null {
  for (const name of ID_PARAMS) {
    const value = search.get(name);
    if (value) return value.slice(0, 512);
  }
  const segments = pathname.split("/").filter(Boolean);
  if (segments.length >= 2 && COLLECTIONS.has(segments[0]!)) {
    try {
      return decodeURIComponent(segments[1]!).slice(0, 512);
    } catch {
      return segments[1]!.slice(0, 512);
    }
  }
  return null;
}
