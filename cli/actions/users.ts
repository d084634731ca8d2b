import { randomBytes } from "node:crypto";
import { createUser } from "@/lib/auth/users/create-user";
import { disableUser } from "@/lib/auth/users/disable-user";
import { resetUserPassword } from "@/lib/auth/users/set-password";
import { CliError, EXIT } from "../exit-codes";
import { cliActor, withStore } from "../store";
import type { CreateUserOptions, GlobalOptions, UserChangeOptions } from "../option-types";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

export async function runCreateUser(options: CreateUserOptions, globals: GlobalOptions): Promise<void> {
  const generated = !options.passwordStdin;
  const password = generated ? randomBytes(18).toString("base64url") : await readStdin();
  if (!password) throw new CliError("no password on stdin", EXIT.usage);
  const { databaseUrl } = globals;
  await withStore({ databaseUrl }, async ({ db }) => {
    const user = await createUser({ db, actor: cliActor(options.actor), input: { email: options.email, name: options.name, role: options.role, password } });
    console.log(`created ${user.role} ${user.email} (${user.id})`);
    if (generated) console.log(`password (shown once): ${password}`);
  });
}

export async function runDisableUser(options: UserChangeOptions, globals: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const user = await disableUser({ db, actor: cliActor(options.actor), email: options.email, input: { reason: options.reason, revokeTokens: options.revokeTokens === true } });
    const tokens = options.revokeTokens ? `; ${user.tokensRevoked} API token(s) they created revoked` : "; API tokens they created keep working (--revoke-tokens revokes them)";
    console.log(`disabled ${user.email}: sessions ended${tokens}; weir users reset-password enables them again`);
  });
}

export async function runResetPassword(options: UserChangeOptions, globals: GlobalOptions): Promise<void> {
  const password = options.passwordStdin ? await readStdin() : undefined;
  if (options.passwordStdin && !password) throw new CliError("no password on stdin", EXIT.usage);
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const reset = await resetUserPassword({ db, actor: cliActor(options.actor), email: options.email.toLowerCase(), input: { password, reason: options.reason } });
    console.log(`new password for ${reset.email}: sessions ended`);
    if (reset.password) console.log(`password (shown once): ${reset.password}`);
  });
}
