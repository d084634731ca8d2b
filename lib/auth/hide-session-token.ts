/**
 * Better Auth (1.7) puts the raw session token in the JSON of sign-in, get-session and
 * change-password. The console never needs it (the HttpOnly cookie carries it), and a body
 * is what scripts log and proxies cache, so these answers go out without it.
 */
const CARRIES_TOKEN = new Set(["/sign-in/email", "/get-session", "/change-password"]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function withoutToken(value: Record<string, unknown>): Record<string, unknown> {
  const { token: _token, ...rest } = value;
  return rest;
}

/** The answer without its token, or undefined when it is left as it is. */
export function hideSessionToken(path: string, returned: unknown): Record<string, unknown> | undefined {
  if (!CARRIES_TOKEN.has(path) || !isRecord(returned) || returned instanceof Response) return undefined;
  const answer = withoutToken(returned);
  if (isRecord(answer.session)) answer.session = withoutToken(answer.session);
  return answer;
}
