import { findKeyState, listKeyVersions } from "@/db/queries/keys";
import { findService, listServices, type ServiceRow } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import type { Normalisation } from "@/lib/dedup/canonical/path-filter";
import { NotFoundError } from "@/lib/errors";
import { messageIdSchema, serviceIdSchema } from "@/lib/validation/common";

export function serviceView(row: ServiceRow) {
  return {
    id: row.id,
    displayName: row.displayName,
    ignoredPaths: row.ignoredPaths,
    includedPaths: row.includedPaths,
    normalise: row.normalise as Normalisation[],
    hashVersion: row.hashVersion,
    historyDepth: row.historyDepth,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getServices(db: DbOrTx) {
  return (await listServices(db)).map(serviceView);
}

export async function getService(db: DbOrTx, id: string) {
  const row = await findService(db, serviceIdSchema.parse(id));
  if (!row) throw new NotFoundError(`service "${id}" is not registered`, "serviceId");
  return serviceView(row);
}

/** The stored state of one key and the payload versions kept for it. */
export async function getKeyDetail(db: DbOrTx, serviceId: string, messageId: string) {
  const service = await getService(db, serviceId);
  const key = messageIdSchema.parse(messageId);
  const state = await findKeyState(db, service.id, key);
  if (!state) throw new NotFoundError(`no state for ${service.id}/${key}`, "messageId");
  const versions = await listKeyVersions(db, service.id, key);
  return {
    service,
    state: { ...state, firstSeen: state.firstSeen.toISOString(), lastChanged: state.lastChanged.toISOString() },
    versions: versions.map((v) => ({ ...v, recordedAt: v.recordedAt.toISOString() })),
  };
}
