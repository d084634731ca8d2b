import { releaseClaim } from "@/lib/dedup/window/release";
import type { GlobalOptions, ReleaseClaimOptions } from "../option-types";
import { withStore } from "../store";

const WHY_NOT = {
  absent: "no claim of it is stored (never claimed, released already or cleaned up)",
  expired: "its window had passed already",
} as const;

/** The release verb behind POST /api/v1/claim/release; releasing what is not held is no error, as there. */
export async function runReleaseClaim(options: ReleaseClaimOptions, globals: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const result = await releaseClaim(db, { consumerGroup: options.group, messageId: options.message, claimedAt: options.claimedAt });
    if (options.json) return console.log(JSON.stringify(result));
    const what = `${result.messageId} in consumer group ${result.consumerGroup}`;
    if (result.reason === "released") console.log(`released the claim of ${what} made at ${result.claimedAt}: its next claim is new`);
    else console.log(`nothing to release for ${what}: ${WHY_NOT[result.reason]}`);
  });
}
