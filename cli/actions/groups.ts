import { changeGroupSettings, previewGroupSettings } from "@/lib/dedup/window/change-group-settings";
import { defaultTtlSeconds } from "@/lib/dedup/window/default-ttl";
import { listConsumerGroups, type ConsumerGroupRow } from "@/lib/dedup/window/groups";
import type { TtlPreview } from "@/lib/dedup/window/ttl-preview";
import { groupBody, ttlChangeBody } from "@/lib/http/routes/consumer-groups";
import type { GlobalOptions, SetGroupOptions } from "../option-types";
import { cliActor, withStore } from "../store";
import { requireReason } from "./reason";

const windowOf = (g: ConsumerGroupRow) =>
  `TTL ${g.ttlSeconds} s, grace ${g.graceSeconds === null ? `one TTL (${g.ttlSeconds} s)` : `${g.graceSeconds} s`}, ${g.slide ? "sliding" : "fixed"}`;

export async function runListGroups(options: { json?: boolean }, globals: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    for (const group of await listConsumerGroups(db)) {
      if (options.json) console.log(JSON.stringify(groupBody(group)));
      else console.log(`${group.id}\t${windowOf(group).replaceAll(", ", "\t")}`);
    }
    console.error(`a group not listed claims with the default TTL of ${defaultTtlSeconds()} s`);
  });
}

function printPreview(preview: TtlPreview, options: SetGroupOptions): void {
  const from = preview.configured ? `TTL ${preview.currentTtlSeconds} s` : `the default TTL of ${preview.currentTtlSeconds} s`;
  console.log(`dry run: consumer group ${preview.consumerGroup} would go from ${from} to ${preview.newTtlSeconds} s; nothing was changed`);
  console.log(`  ${preview.liveNow} records inside the window now, ${preview.liveAfter} after`);
  if (preview.expireAtOnce) console.log(`  ${preview.expireAtOnce} expire at once: their redeliveries are claimed as new`);
  if (preview.liveOn) console.log(`  ${preview.liveOn} live records stay duplicates for longer`);
  if (preview.revived) console.log(`  ${preview.revived} expired records come back inside the window: their redeliveries are duplicates again`);
  if (options.grace !== undefined || options.slide !== undefined) console.log("  grace and sliding are saved as given; they move no stored record at once");
}

/** The one verb of the console's TTL editor and PUT /api/v1/consumer-groups/:id; --dry-run is its preview. */
export async function runSetGroup(id: string, options: SetGroupOptions, globals: GlobalOptions): Promise<void> {
  const actor = cliActor(options.actor);
  const reason = options.dryRun ? undefined : requireReason(options.reason);
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    if (reason === undefined) return printPreview(await previewGroupSettings({ db, actor, input: { consumerGroup: id, ttlSeconds: options.ttl } }), options);
    const input = { consumerGroup: id, ttlSeconds: options.ttl, graceSeconds: options.grace, slide: options.slide, reason };
    const { group, created, change, changed } = await changeGroupSettings({ db, actor, input });
    if (options.json) return console.log(JSON.stringify({ group: groupBody(group), created, change: change && ttlChangeBody(change) }));
    if (!changed) return console.log(`consumer group ${group.id} unchanged (${windowOf(group)}): nothing was written`);
    // A new group's records were claimed under the default TTL: its first TTL moves them too.
    const was = change && change.oldTtlSeconds !== change.newTtlSeconds ? ` (was ${created ? "the default " : ""}${change.oldTtlSeconds} s)` : "";
    const moved = change ? `; ${change.expiredAtOnce} records expired at once, ${change.revived} revived` : "";
    console.log(`${created ? "created" : "changed"} consumer group ${group.id}: ${windowOf(group)}${was}${moved}; audited as ${actor.id}`);
  });
}
