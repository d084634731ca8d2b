import { randomBytes } from "node:crypto";
import { createUser } from "@/lib/auth/users/create-user";
import { CliError, EXIT } from "../exit-codes";
import { cliActor, withStore } from "../store";
import type { CreateUserOptions, GlobalOptions } from "../option-types";

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
