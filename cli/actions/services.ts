import { findService } from "@/db/queries/services";
import { ConflictError } from "@/lib/errors";
import { getServices } from "@/lib/services/read-services";
import { saveService } from "@/lib/services/save-service";
import type { ServiceSettingsInput } from "@/lib/validation/services";
import type { GlobalOptions, SetServiceOptions } from "../option-types";
import { CliError, EXIT } from "../exit-codes";
import { cliActor, withStore } from "../store";

const list = (paths: readonly string[]) => (paths.length ? paths.join(", ") : "none");

export async function runListServices(options: { json?: boolean }, globals: GlobalOptions): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    for (const s of await getServices(db)) {
      if (options.json) console.log(JSON.stringify(s));
      else console.log(`${s.id}\thash settings v${s.hashVersion}\tincluded: ${list(s.includedPaths)}\tignored: ${list(s.ignoredPaths)}\tnormalises: ${list(s.normalise)}\thistory ${s.historyDepth}`);
    }
  });
}

/** The settings verb (the same one PUT /api/v1/services/:id calls), with what was not given kept as stored. */
export async function runSetService(id: string, options: SetServiceOptions, globals: GlobalOptions): Promise<void> {
  if (options.clearIgnored && options.ignore) throw new CliError("--ignore and --clear-ignored contradict each other", EXIT.usage);
  if (options.clearIncluded && options.include) throw new CliError("--include and --clear-included contradict each other", EXIT.usage);
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const current = await findService(db, id);
    const { service, created, previousHashVersion } = await saveService({
      db,
      actor: cliActor(options.actor),
      id,
      input: {
        displayName: options.displayName ?? current?.displayName,
        ignoredPaths: options.clearIgnored ? [] : (options.ignore ?? current?.ignoredPaths ?? []),
        includedPaths: options.clearIncluded ? [] : (options.include ?? current?.includedPaths ?? []),
        // Not given: kept as stored (a new service gets the recommended set); the verb refuses an unknown name.
        normalise: options.normalise?.filter((name) => name !== "none") as ServiceSettingsInput["normalise"],
        historyDepth: options.historyDepth ?? current?.historyDepth ?? 0,
      },
      // What was not given comes from `current`: saved only if no other save came in between.
      ifUnchanged: current && { updatedAt: current.updatedAt.toISOString() },
    }).catch((err: unknown) => {
      if (!(err instanceof ConflictError)) throw err;
      throw new CliError(`nothing was saved: the settings of ${id} were changed by another save while this command ran; run it again to apply yours over them`, EXIT.refused);
    });
    if (options.json) return console.log(JSON.stringify(service));
    const bumped = previousHashVersion !== null && service.hashVersion !== previousHashVersion;
    console.error(
      `${created ? "registered" : "saved"} ${service.id}: hash settings v${service.hashVersion}${bumped ? ` (was v${previousHashVersion})` : ""}, ` +
        `included: ${list(service.includedPaths)}, ignored: ${list(service.ignoredPaths)}, normalises: ${list(service.normalise)}, history ${service.historyDepth}`,
    );
  });
}
