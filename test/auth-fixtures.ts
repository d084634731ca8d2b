import { randomBytes } from "node:crypto";
import type { DbOrTx } from "@/db/types";
import { SYSTEM_ACTOR, type ConsoleRole } from "@/lib/auth/actor";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { createUser } from "@/lib/auth/users/create-user";

export const TEST_HOST = "weir.test:3000";
export const TEST_ORIGIN = `http://${TEST_HOST}`;

export interface TestUser {
  email: string;
  password: string;
  role: ConsoleRole;
  /** "name=value" pairs of the session cookies, ready for a Cookie header. */
  cookie: string;
}

/** "a=1; Path=/; HttpOnly" -> "a=1", joined for a Cookie header. */
export function cookieHeaderOf(setCookie: string[]): string {
  return setCookie.map((c) => c.split(";")[0]!).filter((pair) => !pair.endsWith("=")).join("; ");
}

/** Headers of a browser request from our own origin, as Next would see them. */
export function browserHeaders(extra: Record<string, string> = {}, address = "203.0.113.7"): Headers {
  return new Headers({ host: TEST_HOST, origin: TEST_ORIGIN, [CLIENT_ADDRESS_HEADER]: address, "user-agent": "vitest", ...extra });
}

/** A real user, signed in through Better Auth (scrypt check, session row, signed cookie). */
export async function signedInUser(db: DbOrTx, role: ConsoleRole, address?: string): Promise<TestUser> {
  const email = `${role}-${randomBytes(4).toString("hex")}@weir.test`;
  const password = `pw-${randomBytes(12).toString("hex")}`;
  await createUser({ db, actor: SYSTEM_ACTOR, input: { email, password, role } });
  const { setCookie } = await signInWithPassword(db, { email, password, headers: browserHeaders({}, address) });
  return { email, password, role, cookie: cookieHeaderOf(setCookie) };
}
