import { RateLimitedError } from "@/lib/errors";

/** Better Auth's 429 (from password-guard.ts) as weir's typed error, with the wait it names. */
export function rateLimitedFrom(err: { headers?: unknown }): RateLimitedError {
  const retry = Number(new Headers(err.headers as HeadersInit | undefined).get("retry-after"));
  return new RateLimitedError(Number.isFinite(retry) && retry > 0 ? retry : 60);
}
