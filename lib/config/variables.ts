import { choice, decimal, duration, flag, integer, list, optionalInteger, text, textOr, url, urls, type Kind } from "./kinds";

/** Sections of the reference (docs/configuration.md), in its order. */
export const GROUPS = {
  process: "The process",
  store: "The store (PostgreSQL or embedded)",
  load: "Load and limits",
  engine: "Dedup engine",
  journal: "Decision journal and tracing",
  console: "Console, sign-in and security",
  cli: "The CLI",
  tests: "The test suite (read by `npm test`, never by a node)",
} as const;

export interface Variable<T> extends Kind<T> {
  group: keyof typeof GROUPS;
  description: string;
  /** Its value is never echoed in an error (a password, token or URL that may hold one). */
  secret?: boolean;
}

const variable = <T>(group: keyof typeof GROUPS, kind: Kind<T>, description: string, options: { secret?: boolean } = {}): Variable<T> => ({
  ...kind,
  group,
  description,
  ...options,
});
const SECRET = { secret: true };

/** A year: the longest window (lib/validation/limits.ts MAX_WINDOW_SECONDS; a test keeps them equal). */
export const LONGEST_TTL_SECONDS = 31_536_000;

/**
 * Every variable weir reads, with its kind, default and meaning: the one place they are
 * declared. `lib/config` parses them; docs/configuration.md is generated from this table
 * (`npm run docs:config`) and a test fails when code names a WEIR_* variable missing here.
 */
export const VARIABLES = {
  PORT: variable("process", integer(3000, { min: 0, max: 65_535 }), "Where the one process listens (console and API)."),
  HOST: variable("process", textOr("127.0.0.1"), "The address the process binds."),
  WEIR_API_ONLY: variable("process", flag(false), "`1` serves the machine API alone, without loading Next (API-only nodes, benchmarks; no `next build` needed). Console requests get 404."),
  WEIR_DEV: variable("process", flag(false), "`1` runs Next in development mode (`npm run dev` sets it)."),
  WEIR_DEMO: variable("process", flag(false), "`1` seeds demo services and traffic through the API at start and signs console visitors in as a demo admin (`npm run demo`)."),
  WEIR_CLEANUP_INTERVAL_MS: variable("process", integer(60_000), "How often the in-process cleanup of expired window records and idempotency keys runs, in ms."),
  WEIR_CLEANUP_DUTY: variable(
    "process",
    decimal(0.5, { above: 0, max: 1 }),
    "Share of a cleanup pass spent deleting: after each full batch the pass rests so that deleting takes this share of its time, and claims keep their latency while a backlog goes. `1` never rests.",
  ),

  DATABASE_URL: variable("store", url(["postgres:", "postgresql:"]), "PostgreSQL connection string. Unset: the embedded PGlite store in `WEIR_DATA_DIR`.", SECRET),
  WEIR_DATA_DIR: variable("store", textOr(".weir-data/pglite"), "Embedded store folder. One process at a time may open it; a second one is refused with a clear message."),
  WEIR_MIGRATIONS_DIR: variable("store", text({ defaultText: "`db/migrations` of the working directory" }), "Where the SQL migrations are read from (the `weir` CLI points it at its own package)."),
  WEIR_SKIP_MIGRATIONS: variable("store", flag(false), "`1` when weir runs as the restricted production role; migrate first with the owner (`npm run migrate`)."),
  WEIR_PG_POOL_MAX: variable("store", integer(20), "PostgreSQL pool size per node."),
  WEIR_PG_CONNECT_TIMEOUT_MS: variable("store", integer(2000), "Waiting for a connection, or in a coalescer's queue, longer than this (ms) answers 503."),
  WEIR_PG_STATEMENT_TIMEOUT_MS: variable(
    "store",
    integer(5000),
    "Server-side statement timeout (ms); the client gives up one second later. With `WEIR_PG_SEND_TIMEOUTS=0`, set the same on the role: `ALTER ROLE weir_app SET statement_timeout = '5s'`.",
  ),
  WEIR_PG_SEND_TIMEOUTS: variable(
    "store",
    flag(true),
    "`0` behind PgBouncer: weir then sends no `statement_timeout`, `idle_in_transaction_session_timeout` or `max_parallel_workers_per_gather = 0` when it connects (PgBouncer refuses them: \"unsupported startup parameter\"). The database role carries them instead (`db/roles/production-grants.sql` sets 5 s, 10 s and 0 on `weir_app`); weir warns at its first connection if it finds no statement timeout.",
  ),
  WEIR_PG_PREPARED: variable(
    "store",
    flag(true),
    "`0` sends every hot statement unnamed (parse, bind, execute each time): what PgBouncer in transaction mode needs, since a named statement lives on one server connection. Costs a parse per statement. Read once at start.",
  ),
  WEIR_LISTEN_DATABASE_URL: variable(
    "store",
    url(["postgres:", "postgresql:"], "`DATABASE_URL`"),
    "Where the node's one LISTEN connection (for waiting idempotency begins) goes: a direct or session-mode address when `DATABASE_URL` is PgBouncer in transaction mode.",
    SECRET,
  ),
  WEIR_CITUS_ROUTE_URLS: variable(
    "store",
    urls(["postgres:", "postgresql:"], "none: everything goes to `DATABASE_URL`"),
    "Citus: connection strings of weir's database on each worker, comma-separated (every worker, the same list on every node). The hot path (checks, claims, idempotency, reverts, token lookups, the stats flush and journal writes, the LISTEN of waiting begins) then connects to them: each key's work to the worker holding its shard (a pool per worker; weir reads the placements from the workers and matches them to these URLs by host and port), the rest in turn, so the coordinator only serves the console, resets, cleanup and migrations and checks go on while it is down. See [citus.md](citus.md#no-coordinator-on-the-hot-path).",
    SECRET,
  ),

  WEIR_MAX_IN_FLIGHT: variable(
    "load",
    integer(512),
    "API requests in flight past which a new one is answered 503 `overloaded` before its body is read, to the heaviest caller first (health and metrics are never refused); `weir_http_concurrency_limit` shows the limit. See [security.md](security.md), the tenant model.",
  ),
  WEIR_MIN_IN_FLIGHT: variable(
    "load",
    optionalInteger("`WEIR_MAX_IN_FLIGHT`"),
    "Set lower (e.g. `64`) to let the limit adapt between the two: it shrinks while the median answer takes more than twice its moving average and grows back while it does not. Off by default: where weir shares its cores, latency rises whoever causes it, and in the bench the adaptive limit refused more than the fixed one below capacity.",
  ),
  WEIR_MAX_IN_FLIGHT_PER_CREDENTIAL: variable(
    "load",
    optionalInteger("a quarter of `WEIR_MAX_IN_FLIGHT`, at least 8"),
    "Requests in flight one credential (token, session or client address) may hold on a node; past it 429 with `Retry-After`, before the body is read. A token's own `maxInFlight` replaces it.",
  ),
  WEIR_MAX_BODY_BYTES: variable("load", integer(1_048_576), "Request body limit in bytes; larger bodies get 413. Read once at start."),
  WEIR_BODY_TIMEOUT_MS: variable(
    "load",
    integer(5000),
    "Time a body has to arrive once weir reads it (ms, up to a quarter more, at random); past it 408 `body_timeout`, the connection closed, the slot freed.",
  ),
  WEIR_SHED_AFTER_MS: variable(
    "load",
    integer(200),
    "Once the oldest check or claim in a coalescer's queue has waited this long (ms), new ones are refused at once with 503 `overloaded` (or `store_unavailable` when no statement has answered for that long).",
  ),
  WEIR_COALESCE_MAX_IN_FLIGHT: variable(
    "load",
    optionalInteger("half of `WEIR_PG_POOL_MAX`, between 1 and 4"),
    "Statements in flight per coalescer: few large statements beat many small ones on two cores, and most of the pool stays free for batch requests and the console.",
  ),
  WEIR_COALESCE_MAX_BATCH: variable("load", integer(256), "Checks or claims one coalesced statement carries at most (`1` turns coalescing off)."),
  WEIR_ROUTED_CONCURRENCY: variable(
    "load",
    optionalInteger("half of `WEIR_PG_POOL_MAX`, at least 1"),
    "On Citus, calls of a batch in flight at once: one per worker holding its keys, or one-key statements where a batch cannot be grouped (each holds a pool connection while its worker works). Read once at start.",
  ),
  WEIR_IDEMPOTENCY_MAX_WAITERS: variable(
    "load",
    integer(1000, { min: 0 }),
    "Begins a node holds waiting (`waitSeconds`) for an in-flight idempotency key; past it a begin answers 409 at once.",
  ),
  WEIR_IDEMPOTENCY_MAX_WAITERS_PER_CREDENTIAL: variable(
    "load",
    optionalInteger("a quarter of `WEIR_IDEMPOTENCY_MAX_WAITERS`, at least 8"),
    "Waiting begins one credential may hold on a node; past it the begin answers 409 at once.",
  ),
  WEIR_REVERT_LIMIT: variable("load", integer(600), "Reverts per credential per 10 minutes (each writes an audit row); past it 429."),

  WEIR_DEFAULT_TTL_SECONDS: variable("engine", integer(86_400, { max: LONGEST_TTL_SECONDS }), "Window TTL of a consumer group that has no settings of its own, in seconds."),
  WEIR_SERVICE_CACHE_MS: variable(
    "engine",
    integer(5000, { min: 0 }),
    "How long a node caches service settings (ignored and included paths, history depth), in ms. A change made on a node applies there at once, on other nodes within this bound; a key already stored under newer settings makes a node drop its cached ones at once.",
  ),
  WEIR_RESET_RETENTION_DAYS: variable("engine", decimal(7, { above: 0, max: 365 }), "How long a reset can be undone, in days."),
  WEIR_STATS_MINUTE_RETENTION: variable(
    "engine",
    duration("35d", "2d"),
    "How long the per-minute stats are kept (at least `2d`): the retention job removes older minutes in whole UTC days, once each has been summed into the quarter-hour, hourly and daily stats, which are kept. Ranges reaching further back are counted in whole quarter hours there.",
  ),

  WEIR_JOURNAL: variable(
    "journal",
    choice(["on", "off"], "on"),
    "`off`: this node keeps no decision journal (no subscriber, no buffer, no writes). Per subject, the level (all, changes and duplicates, off) is set in the console, the API or `weir journal level`. Read once at start.",
  ),
  WEIR_JOURNAL_BUFFER: variable(
    "journal",
    integer(100_000),
    "Journal entries a node holds while they wait to be written; past it new entries are dropped, counted and named as gaps (a decision never waits). Read once at start.",
  ),
  WEIR_JOURNAL_FLUSH_MS: variable("journal", integer(1000), "How often a node appends its buffered journal entries, in batches (ms). Read once at start."),
  WEIR_JOURNAL_RETENTION: variable(
    "journal",
    duration("7d"),
    "How long journal entries are kept: `7d`, `36h`, `90m` or a number of days. Whole UTC days are dropped, so entries stay up to one day longer.",
  ),
  WEIR_TRACE_URL: variable("journal", text(), "A template such as `https://tempo.example/trace/{traceId}`: the console links each journaled trace id through it."),

  WEIR_NATS_URL: variable(
    "process",
    text({ defaultText: "unset" }),
    "The NATS server (JetStream) a replay-aware reset reads its range from, e.g. `nats://127.0.0.1:4222`; unset, the reset page has no JetStream form (the CLI takes `--nats-url`).",
  ),
  WEIR_PUBLIC_URL: variable(
    "console",
    url(["http:", "https:"]),
    "The console's public URL. When it is `https://…`, the session cookie becomes `__Host-` prefixed and Secure, and HSTS is sent.",
  ),
  WEIR_ALLOWED_ORIGINS: variable("console", list("the public URL"), "Extra origins allowed to call server actions and mutating console routes."),
  WEIR_AUTH_SECRET: variable(
    "console",
    text({ min: 32, defaultText: "generated" }),
    "Signs console sessions; never written to the database. Unset: a random secret is generated once and kept in the database, where a backup can read it (set it in production).",
    SECRET,
  ),
  WEIR_ADMIN_EMAIL: variable(
    "console",
    text(),
    "With `WEIR_ADMIN_PASSWORD`, the first admin, created on start when no user exists (never overwritten). `npm run create-admin` does the same interactively. If the database is unreachable at start, the admin is created as soon as it answers, without a restart.",
  ),
  WEIR_ADMIN_PASSWORD: variable("console", text(), "The first admin's password (see `WEIR_ADMIN_EMAIL`); `npm run create-admin` also reads it.", SECRET),
  WEIR_SESSION_SECONDS: variable("console", integer(8 * 3600), "Console session lifetime, in seconds."),
  WEIR_REAUTH_AFTER_SECONDS: variable("console", integer(900), "Destructive operations (bulk reset, TTL edits, token creation) need a sign-in younger than this, in seconds."),
  WEIR_LOGIN_LIMIT_PER_ADDRESS: variable("console", integer(50), "Sign-in attempts per client address per 15 minutes (PostgreSQL-backed, shared by all nodes)."),
  WEIR_LOGIN_FREE_FAILURES: variable(
    "console",
    integer(5),
    "Past this many failed sign-ins on an account, an address that failed waits 2, 4, 8... s (capped by `WEIR_LOGIN_MAX_DELAY_SECONDS`) before its next try; no lockout, so the real user signs in from elsewhere during an attack.",
  ),
  WEIR_LOGIN_MAX_DELAY_SECONDS: variable("console", integer(300), "The longest wait between sign-in tries after failures, in seconds."),
  WEIR_SECURITY_EVENT_DAYS: variable("console", integer(30), "Retention of failed and refused sign-ins (`security_events`; see [security.md](security.md)), in days."),
  WEIR_DESTRUCTIVE_LIMIT: variable("console", integer(30), "Destructive operations per actor per 10 minutes (registering a service is not one)."),
  WEIR_TRUSTED_PROXY_HOPS: variable("console", integer(0, { min: 0 }), "Proxies in front of weir whose `X-Forwarded-For` is trusted for the client address."),
  WEIR_METRICS_TOKEN: variable(
    "console",
    text(),
    "When set, `/api/metrics` needs `Authorization: Bearer <it>`, checked without the store so metrics work during an outage. Unset, anyone who reaches the port can read it: no payloads, message ids or secrets, but the names of every service, consumer group and idempotency scope that has seen traffic (up to `WEIR_METRICS_MAX_SUBJECTS` per metric), API token ids and their request counts, per-route figures, pool and process figures. Set it, or keep the port private.",
    SECRET,
  ),
  WEIR_METRICS_MAX_SUBJECTS: variable("console", integer(1000), "Distinct service / group / scope label values per metric; the rest fold into `_other`."),

  WEIR_URL: variable("cli", textOr("http://127.0.0.1:3000"), "`weir simulate`: weir's address (`--url` wins)."),
  WEIR_TOKEN: variable("cli", text(), "`weir simulate`: an API token (`--token` wins); admin for `--setup`, else a service token for the demo ids.", SECRET),

  NATS_URL: variable("tests", text({ defaultText: "`nats://127.0.0.1:4222`" }), "The NATS server for the example consumer and its tests; unset, the preflight uses 127.0.0.1:4222 when it answers with JetStream, else starts `nats-server` on a free port."),
  WEIR_PG_BIN: variable("tests", text(), "Folder of the PostgreSQL server binaries (initdb, pg_ctl) the fault and Citus suites start clusters with; the preflight sets it."),
  WEIR_PGBOUNCER_BIN: variable("tests", text({ defaultText: "`pgbouncer` on the PATH" }), "The PgBouncer binary of `npm run test:pgbouncer`."),
} satisfies Record<string, Variable<unknown>>;

export type VariableName = keyof typeof VARIABLES;
export type ValueOf<N extends VariableName> = (typeof VARIABLES)[N] extends Variable<infer T> ? T : never;
