-- Run once as the owner of weir's database, after `npm run migrate` (which runs
-- as the owner). weir itself then connects as weir_app, which cannot change or
-- remove audit rows: the append-only trigger (migration 0003) stops UPDATE,
-- DELETE and TRUNCATE, and weir_app does not own audit_log, so it can neither
-- drop that trigger nor disable it.
--
--   DATABASE_URL="$OWNER_DATABASE_URL" npm run migrate
--   psql "$OWNER_DATABASE_URL" -v app_password="'...'" -f db/roles/production-grants.sql
--   DATABASE_URL=postgres://weir_app:...@host/weir WEIR_SKIP_MIGRATIONS=1 npm start
--
-- Re-run this file after each upgrade's migrations, so that new tables are granted too.

DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'weir_app') THEN
    CREATE ROLE weir_app LOGIN;
  END IF;
END $$;
ALTER ROLE weir_app PASSWORD :app_password;

GRANT USAGE ON SCHEMA public TO weir_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO weir_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO weir_app;
-- weir_app cannot apply migrations (no DDL rights): the owner runs them, weir starts with WEIR_SKIP_MIGRATIONS=1.
-- The audit log: read and append, nothing else.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM weir_app;
GRANT SELECT, INSERT ON audit_log TO weir_app;

-- The server-side timeouts weir otherwise sends when it connects. Behind PgBouncer it cannot
-- (WEIR_PG_SEND_TIMEOUTS=0): the role carries them. Keep statement_timeout equal to
-- WEIR_PG_STATEMENT_TIMEOUT_MS (5 s by default); weir warns at start when it has none.
ALTER ROLE weir_app SET statement_timeout = '5s';
ALTER ROLE weir_app SET idle_in_transaction_session_timeout = '10s';
-- And no parallel plans, which weir's small, indexed statements wait for more than they gain (db/client.ts).
ALTER ROLE weir_app SET max_parallel_workers_per_gather = 0;
