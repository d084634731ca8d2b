/** Who performs an operation; every verb receives one and every audit row names it. */
export type Role = "viewer" | "operator" | "admin" | "service";

/** The console's roles; "service" is for API tokens only. */
export type ConsoleRole = Exclude<Role, "service">;

/** Ids an API token may touch, per kind; "*" in a list means every id. */
export interface Scopes {
  services: readonly string[];
  consumerGroups: readonly string[];
  idempotencyScopes: readonly string[];
}

export type ScopeKind = keyof Scopes;

export interface Actor {
  /** A user's email, "token:<id>" for an API token, or "system" for scheduled work. */
  id: string;
  role: Role;
  /** How the actor proved who it is; absent for in-process actors (system, tests, CLI). */
  via?: "session" | "token";
  /** Only API tokens are scoped; session users and the system see every id. */
  scopes?: Scopes;
  /** When the console user signed in (re-authentication is measured from here). */
  signedInAt?: Date;
  /** The console user's id, for sessions. */
  userId?: string;
  /** An API token's own limits on each node; absent or null: the defaults (lib/http/capacity-gate.ts). */
  limits?: TokenLimits;
}

export interface TokenLimits {
  maxInFlight: number | null;
  requestsPerSecond: number | null;
}

export const SYSTEM_ACTOR: Actor = { id: "system", role: "admin" };

export const ALL_SCOPES: Scopes = { services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] };
