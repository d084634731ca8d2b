import { createInterface } from "node:readline";
import { openStore } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { findUserByEmail } from "@/db/queries/auth-users";
import { SYSTEM_ACTOR, type ConsoleRole } from "@/lib/auth/actor";
import { isConsoleRole } from "@/lib/auth/roles";
import { setUserPassword } from "@/lib/auth/users/set-password";
import { createUser } from "@/lib/auth/users/create-user";
import { setting } from "@/lib/config";

/**
 * Creates a console user (an admin unless --role says otherwise), or with
 * --reset-password gives an existing one a new password and ends their sessions.
 * The password comes from WEIR_ADMIN_PASSWORD or standard input, never argv
 * (where other users of the machine could read it).
 *
 *   npm run create-admin -- --email ops@example.com [--role admin|operator|viewer] [--name "Ops"] [--reset-password]
 *
 * With the embedded store, stop weir first: only one process may open its data folder.
 */
function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

async function readPassword(): Promise<string> {
  const given = setting("WEIR_ADMIN_PASSWORD");
  if (given) return given;
  if (process.stdin.isTTY) process.stderr.write("Password (at least 12 characters; input is read from the terminal): ");
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new Error("no password given: set WEIR_ADMIN_PASSWORD or pipe it on standard input");
}

async function main(): Promise<void> {
  const email = option("--email")?.trim().toLowerCase();
  const role = option("--role") ?? "admin";
  if (!email) throw new Error("usage: npm run create-admin -- --email you@example.com [--role admin|operator|viewer] [--name NAME] [--reset-password]");
  if (!isConsoleRole(role)) throw new Error(`--role must be viewer, operator or admin, not "${role}"`);
  const password = await readPassword();
  const store = await openStore(storeConfigFromEnv());
  try {
    if (process.argv.includes("--reset-password")) {
      await setUserPassword({ db: store.db, actor: SYSTEM_ACTOR, email, password });
      console.log(`[weir] new password set for ${email}; their sessions were ended`);
    } else if (await findUserByEmail(store.db, email)) {
      throw new Error(`${email} already exists; use --reset-password to give it a new password`);
    } else {
      const user = await createUser({ db: store.db, actor: SYSTEM_ACTOR, input: { email, password, role: role as ConsoleRole, name: option("--name") } });
      console.log(`[weir] created ${user.role} ${user.email}`);
    }
  } finally {
    await store.close();
  }
}

main().catch((err: Error) => {
  console.error(`[weir] ${err.message}`);
  process.exit(1);
});
