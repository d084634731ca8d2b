/** A same-site path to return to after sign-in; anything else (other hosts, "//x", "/\\x") becomes "/". */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (next.startsWith("/sign-in") || next.startsWith("/api/auth")) return "/";
  return next;
}
