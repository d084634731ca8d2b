import { setting } from "@/lib/config";

/** Stands in for the console's origin when WEIR_PUBLIC_URL is not set: only "same origin as the base" matters. */
const FALLBACK_ORIGIN = "http://weir.invalid";
const MAX_NEXT_CHARS = 2000;
/** Pages that must never be the destination after signing in (a loop, or Better Auth's own endpoints). */
const REFUSED_PREFIXES = ["/sign-in", "/api/auth"];

/**
 * A same-origin path to return to after sign-in, else "/". The input is read the way a
 * browser reads a Location header (the WHATWG URL parser: tab, CR and LF dropped, "\" read
 * as "/"), so "/\t/evil.example" is another host here too. Returns the parsed, normalised
 * path, query and fragment, never the raw text.
 */
export function safeNextPath(next: string | null | undefined, origin = consoleOrigin()): string {
  if (typeof next !== "string" || next === "" || next.length > MAX_NEXT_CHARS) return "/";
  const resolved = sameOriginUrl(next, origin);
  if (!resolved) return "/";
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // "/.//evil" normalises to "//evil", which a browser reads as another host: check the result again.
  if (!path.startsWith("/") || path.startsWith("//") || !sameOriginUrl(path, origin)) return "/";
  if (isRefused(resolved.pathname)) return "/";
  return path;
}

function sameOriginUrl(text: string, origin: string): URL | null {
  let url: URL;
  try {
    url = new URL(text, origin);
  } catch {
    return null;
  }
  return url.origin === new URL(origin).origin && url.username === "" && url.password === "" ? url : null;
}

function isRefused(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Malformed escapes stay as they are; the raw pathname is checked below either way.
  }
  return [pathname, decoded].some((path) => REFUSED_PREFIXES.some((prefix) => path.toLowerCase().startsWith(prefix)));
}

function consoleOrigin(): string {
  try {
    const publicUrl = setting("WEIR_PUBLIC_URL");
    return publicUrl ? new URL(publicUrl).origin : FALLBACK_ORIGIN;
  } catch {
    return FALLBACK_ORIGIN;
  }
}
