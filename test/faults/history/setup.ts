import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { adminDb, createAdminToken, registerService } from "../fixtures";
import { WeirNode } from "../weir-node";

export interface HistorySubjects {
  serviceId: string;
  groups: { id: string }[];
  initialTtl: number;
}

/**
 * What a history run needs in its database: an admin token, the service (the sent time
 * ignored, 3 versions kept) and each group with its initial TTL. Returns the token.
 */
export async function prepareHistoryDatabase(url: string, subjects: HistorySubjects): Promise<string> {
  const admin = adminDb(url);
  try {
    const token = await createAdminToken(admin.db);
    await registerService(admin.db, subjects.serviceId, { ignoredPaths: ["/meta/sentAt"], historyDepth: 3 });
    for (const group of subjects.groups) {
      await setGroupTtl(admin.db, {
        consumerGroup: group.id,
        ttlSeconds: subjects.initialTtl,
        graceSeconds: 31_536_000,
        reason: "history",
        actor: { id: "faults", role: "admin" },
      });
    }
    return token;
  } finally {
    await admin.close();
  }
}

/** Weir API nodes on `url`, started, each with a small pool and no limit on destructive actions. */
export async function startHistoryNodes(url: string, names: string[], env: Record<string, string> = {}): Promise<WeirNode[]> {
  const nodes = names.map((name) => new WeirNode({ DATABASE_URL: url, WEIR_PG_POOL_MAX: "6", WEIR_DESTRUCTIVE_LIMIT: "1000000", ...env }, name));
  await Promise.all(nodes.map((node) => node.start()));
  return nodes;
}
