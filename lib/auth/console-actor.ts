import { cache } from "react";
import { getDb } from "@/db/client";
import { ForbiddenError, UnauthorizedError } from "@/lib/errors";
import type { Actor } from "./actor";
import { authEnv } from "./auth-env";
import { authorize } from "./authorize";
import { originProblem } from "./origin";
import { inExplicitScope, requestHeaders } from "./request-headers";
import type { Permission } from "./permissions";
import { sessionActor } from "./session-actor";

/**
 * The signed-in console user, from the session cookie, or null. Every page,
 * server action and console route calls `requireConsoleActor` with the
 * permission it needs (checked by `authorize`, the one rule); deny by default. Destructive actions also call
 * `requireRecentSignIn` (lib/auth/recent-sign-in.ts).
 */
export async function getConsoleActor(): Promise<Actor | null> {
  return actorOfRequest(await requestHeaders());
}

/**
 * One session lookup per page render: the root layout's session bar and the page both ask, and
 * each lookup is two store reads through Better Auth. React's cache lives for one server render;
 * server actions (which may sign out) and explicit header scopes always look up afresh.
 */
const sessionActorOfRender = cache(async (): Promise<Actor | null> => sessionActor(await getDb(), await requestHeaders()));

async function actorOfRequest(headers: Headers): Promise<Actor | null> {
  if (headers.has("next-action") || inExplicitScope()) return sessionActor(await getDb(), headers);
  return sessionActorOfRender();
}

/** Refuses a server action whose Origin is missing, null or another site's (see origin.ts). */
export async function assertSameOrigin(headers?: Headers): Promise<void> {
  const problem = originProblem(headers ?? (await requestHeaders()), authEnv());
  if (problem) throw new ForbiddenError(`cross-site request refused: ${problem}`);
}

/** What a signed-out caller gets: pages go to sign-in, actions and console route handlers a 401. */
type SignedOut = "redirect" | "unauthorized";

async function requireActor(permission: Permission, signedOut: SignedOut): Promise<Actor> {
  const headers = await requestHeaders();
  // Server actions carry Next-Action; pages (plain GETs) carry no Origin to check.
  if (headers.has("next-action")) await assertSameOrigin(headers);
  const actor = await actorOfRequest(headers);
  if (!actor) {
    // The proxy only sees that a cookie exists: a page whose session expired (or whose cookie is
    // bogus) goes to sign-in whatever it accepts, HEAD included, so it is never a 500.
    if (signedOut === "redirect" && !headers.has("next-action") && !inExplicitScope()) {
      const { redirect } = await import("next/navigation");
      redirect("/sign-in");
    }
    throw new UnauthorizedError("sign in to use the console");
  }
  authorize(actor, permission);
  return actor;
}

/** Pages and server actions. */
export async function requireConsoleActor(permission: Permission): Promise<Actor> {
  return requireActor(permission, "redirect");
}

/** Console route handlers (downloads, polls): a 401 they answer themselves, never a redirect. */
export async function requireConsoleCaller(permission: Permission): Promise<Actor> {
  return requireActor(permission, "unauthorized");
}
