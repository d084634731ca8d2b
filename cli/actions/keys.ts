import { revertCheck } from "@/lib/dedup/last-seen/revert";
import type { GlobalOptions, RevertKeyOptions } from "../option-types";
import { cliActor, withStore } from "../store";

/** The revert verb behind POST /api/v1/check/revert; a conflict (another version now) names the key's version. */
export async function runRevertKey(options: RevertKeyOptions, globals: GlobalOptions): Promise<void> {
  const actor = cliActor(options.actor);
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const result = await revertCheck({ db, actor, input: { serviceId: options.service, messageId: options.message, version: options.keyVersion } });
    if (options.json) return console.log(JSON.stringify(result));
    const now =
      result.version === null
        ? "the key has no state now: its next check is new"
        : `v${result.version} is stored again (hash ${result.hash}): its next check is compared with it`;
    console.log(`reverted v${result.revertedVersion} of ${result.messageId} (service ${result.serviceId}): ${now}; audited as ${actor.id}`);
  });
}
