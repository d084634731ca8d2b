/**
 * The options each CLI command parses, apart from the commands (commands/*) that declare them
 * and the actions (actions/*) that take them, so that neither imports the other for a type.
 */

export interface GlobalOptions {
  databaseUrl?: string;
  quiet?: boolean;
}

export interface ReleaseClaimOptions {
  group: string;
  message: string;
  claimedAt?: string;
  json?: boolean;
}

export interface ExportOptions {
  service: string;
  format: "ndjson" | "csv";
  output?: string;
  prefix?: string;
  from?: string;
  to?: string;
  pageSize: number;
}

export interface SetGroupOptions {
  ttl: number;
  grace?: number | null;
  slide?: boolean;
  reason?: string;
  dryRun?: boolean;
  actor?: string;
  json?: boolean;
}

export interface JournalExportOptions {
  mode: string;
  subject: string;
  from: string;
  to: string;
  decision?: string[];
  caller?: string;
  key?: string;
  output?: string;
  pageSize: number;
}

export interface JournalKeyOptions {
  limit: number;
  before?: string;
  json?: boolean;
}

export interface JournalLevelOptions {
  reason?: string;
  actor?: string;
  json?: boolean;
}

export interface RevertKeyOptions {
  service: string;
  message: string;
  keyVersion: number;
  actor?: string;
  json?: boolean;
}

export interface ResetOptions {
  service?: string;
  group?: string;
  key?: string[];
  keysFile?: string;
  prefix?: string;
  from?: string;
  to?: string;
  all?: boolean;
  reason?: string;
  dryRun?: boolean;
  /** With --dry-run: the whole selection as CSV to this path ("-": stdout). */
  csv?: string;
  confirm?: string;
  actor?: string;
}

export interface SetServiceOptions {
  displayName?: string;
  ignore?: string[];
  include?: string[];
  clearIgnored?: boolean;
  clearIncluded?: boolean;
  normalise?: string[];
  historyDepth?: number;
  actor?: string;
  json?: boolean;
}

export interface SimulateOptions {
  url: string;
  token?: string;
  orders: number;
  rounds: number;
  redelivery: number;
  producerRetry: number;
  seed: number;
  group: string;
  scope: string;
  batchSize: number;
  setup: boolean;
  timeout: number;
  retries: number;
}

export interface CreateTokenOptions {
  name: string;
  role: "service" | "viewer" | "operator" | "admin";
  service?: string[];
  group?: string[];
  scope?: string[];
  all?: boolean;
  expiresInDays?: number;
  maxInFlight?: number;
  requestsPerSecond?: number;
  reason?: string;
  actor?: string;
  json?: boolean;
}

export interface RevokeTokenOptions {
  reason: string;
  actor?: string;
}

/** disable and reset-password: one user, by email, and why. */
export interface UserChangeOptions {
  email: string;
  reason: string;
  passwordStdin?: boolean;
  /** disable: also revoke the API tokens the user created. */
  revokeTokens?: boolean;
  actor?: string;
}

export interface CreateUserOptions {
  email: string;
  name?: string;
  role: "viewer" | "operator" | "admin";
  passwordStdin?: boolean;
  actor?: string;
}

export interface EraseOptions {
  service?: string;
  group?: string;
  scope?: string;
  key?: string;
  all?: boolean;
  reason?: string;
  dryRun?: boolean;
  confirm?: string;
  actor?: string;
}

export interface RetentionOptions {
  service?: string;
  scope?: string;
  maxAge?: string;
  reason?: string;
  actor?: string;
}

export interface ReplayResetOptions {
  natsUrl?: string;
  stream: string;
  service?: string;
  group?: string;
  fromSeq?: string;
  toSeq?: string;
  from?: string;
  to?: string;
  idHeader?: string;
  idPath?: string;
  reason?: string;
  dryRun?: boolean;
  confirm?: string;
  actor?: string;
}
