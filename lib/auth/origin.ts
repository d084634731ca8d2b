import type { AuthEnv } from "./auth-env";
import { setting } from "@/lib/config";

type HeaderSource = Pick<Headers, "get"> | undefined;

/**
 * Origins that may send state-changing requests: the origin the request was
 * addressed to (its Host), the configured public URL, and WEIR_ALLOWED_ORIGINS.
 */
export function allowedOriginsFor(headers: HeaderSource, env: Pick<AuthEnv, "publicUrl">): string[] {
  const origins: string[] = [];
  if (env.publicUrl) origins.push(new URL(env.publicUrl).origin);
  origins.push(...setting("WEIR_ALLOWED_ORIGINS"));
  const host = headers?.get("host");
  if (host) origins.push(`http://${host}`, `https://${host}`);
  return origins;
}

/**
 * Why a state-changing request must be refused, or null when its Origin is
 * ours. A missing Origin, the literal "null" (sandboxed frames, some
 * redirects) and any other site are all refused: browsers send Origin on every
 * POST, so only non-browser clients or attacks arrive without one.
 */
export function originProblem(headers: HeaderSource, env: Pick<AuthEnv, "publicUrl">): string | null {
  const origin = headers?.get("origin");
  if (origin === null || origin === undefined || origin === "") return "the request has no Origin header";
  if (origin === "null") return "the request's Origin is null";
  return allowedOriginsFor(headers, env).includes(origin) ? null : `the Origin ${origin} is not this site`;
}

export const UNSAFE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);
