"use server";
/**
 * Sign-in and sign-out. Every export of a "use server" file is a public
 * endpoint: each one checks the request's Origin itself and returns only
 * weir's own messages.
 */
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { assertSameOrigin } from "@/lib/auth/console-actor";
import { requestHeaders } from "@/lib/auth/request-headers";
import { safeNextPath } from "@/lib/auth/safe-next";
import { signInWithPassword, signOutSession } from "@/lib/auth/sign-in";
import { runAction, type ActionFailure } from "@/lib/console/action-result";

const signInSchema = z.object({
  email: z.string().trim().min(1, "enter your email").max(320),
  password: z.string().min(1, "enter your password").max(256),
  next: z.string().max(2000).optional(),
});

/** A refused sign-in, with the email typed so that the form can keep it (React resets forms after an action). */
export type SignInState = (ActionFailure & { email: string }) | null;

export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  const result = await runAction(async () => {
    const headers = await requestHeaders();
    await assertSameOrigin(headers);
    const input = signInSchema.parse({ email: form.get("email"), password: form.get("password"), next: form.get("next") ?? undefined });
    await signInWithPassword(await getDb(), { email: input.email, password: input.password, headers });
    return safeNextPath(input.next);
  });
  if (!result.ok) return { ...result, email: String(form.get("email") ?? "").slice(0, 320) };
  redirect(result.data);
}

export async function signOut(): Promise<void> {
  const headers = await requestHeaders();
  await assertSameOrigin(headers);
  await signOutSession(await getDb(), headers);
  redirect("/sign-in");
}
