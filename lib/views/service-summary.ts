import type { ServiceRow } from "@/db/queries/services";

/** What a service's pages show of it in their heading: its name and what it hashes. */
export type ServiceSummary = Pick<ServiceRow, "id" | "displayName" | "ignoredPaths" | "includedPaths" | "normalise" | "hashVersion" | "historyDepth">;

export function serviceSummary(row: ServiceRow): ServiceSummary {
  const { id, displayName, ignoredPaths, includedPaths, normalise, hashVersion, historyDepth } = row;
  return { id, displayName, ignoredPaths, includedPaths, normalise, hashVersion, historyDepth };
}
