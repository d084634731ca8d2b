import { storableText } from "./common";

/** At most this much of a parameter's name goes into the message (an attacker chooses it). */
const MAX_NAME = 64;

function decoded(component: string): string | null {
  try {
    const text = decodeURIComponent(component.replaceAll("+", " "));
    return storableText(text) ? text : null;
  } catch {
    return null; // malformed %-encoding, or UTF-8 that is not text (an encoded surrogate)
  }
}

/**
 * The first part of a console URL that is not text PostgreSQL can hold (NUL, malformed
 * %-encoding, unpaired surrogates), named for a 400, or null when every part is. Console
 * pages pass path segments and query parameters to the store; this stops them at the door.
 * (Next hands the proxy a query whose malformed UTF-8 is already U+FFFD; a path, as sent.)
 */
export function invalidUrlText(pathname: string, search: string): { field: string; message: string } | null {
  for (const segment of pathname.split("/")) {
    if (decoded(segment) === null) return { field: "path", message: "the path is not valid text (NUL, malformed %-encoding or an unpaired surrogate)" };
  }
  for (const pair of (search.startsWith("?") ? search.slice(1) : search).split("&")) {
    const equals = pair.indexOf("=");
    const name = decoded(equals < 0 ? pair : pair.slice(0, equals));
    if (name !== null && (equals < 0 || decoded(pair.slice(equals + 1)) !== null)) continue;
    const field = name === null ? "query" : name.slice(0, MAX_NAME);
    return { field, message: `query parameter "${field}" is not valid text (NUL, malformed %-encoding or an unpaired surrogate)` };
  }
  return null;
}
