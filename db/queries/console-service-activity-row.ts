/** One service's recent activity on the console's list; the one-server and the Citus query both return it. */
export interface ServiceActivityRow {
  serviceId: string;
  /** Hour bucket start, epoch ms, with that hour's checks and duplicates. */
  hours: { t: number; checks: number; duplicates: number }[];
  lastActivity: Date | null;
}
