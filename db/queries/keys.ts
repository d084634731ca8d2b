import { and, desc, eq } from "drizzle-orm";
import { lastSeen, payloadVersions } from "../schema";
import type { DbOrTx } from "../types";

export interface KeyState {
  serviceId: string;
  messageId: string;
  hash: string;
  /** The hash settings version the hash was made under. */
  hashVersion: number;
  version: number;
  firstSeen: Date;
  lastChanged: Date;
  /** The caller's ref given with the check that stored this version (null: none). */
  ref: string | null;
}

export async function findKeyState(db: DbOrTx, serviceId: string, messageId: string): Promise<KeyState | undefined> {
  // The columns of the state, not the row: previous_hash is the engine's, for revert.
  const [row] = await db
    .select({
      serviceId: lastSeen.serviceId,
      messageId: lastSeen.messageId,
      hash: lastSeen.hash,
      hashVersion: lastSeen.hashVersion,
      version: lastSeen.version,
      firstSeen: lastSeen.firstSeen,
      lastChanged: lastSeen.lastChanged,
      ref: lastSeen.ref,
    })
    .from(lastSeen)
    .where(and(eq(lastSeen.serviceId, serviceId), eq(lastSeen.messageId, messageId)));
  return row && { ...row, hash: Buffer.from(row.hash).toString("hex") };
}

export interface StoredVersion {
  version: number;
  hash: string;
  payload: string;
  recordedAt: Date;
}

/** Kept payload versions of a key, newest first. */
export async function listKeyVersions(db: DbOrTx, serviceId: string, messageId: string): Promise<StoredVersion[]> {
  const rows = await db
    .select({
      version: payloadVersions.version,
      hash: payloadVersions.hash,
      payload: payloadVersions.payload,
      recordedAt: payloadVersions.recordedAt,
    })
    .from(payloadVersions)
    .where(and(eq(payloadVersions.serviceId, serviceId), eq(payloadVersions.messageId, messageId)))
    .orderBy(desc(payloadVersions.version));
  return rows.map((row) => ({ ...row, hash: Buffer.from(row.hash).toString("hex") }));
}
