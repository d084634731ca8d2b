-- Written by hand: drizzle-kit does not model a table's storage parameters.
-- Every change to a key leaves a dead row version in last_seen and a dead entry in each of its three
-- indexes (last_changed and version are indexed for the key browser, so no change is a HOT update).
-- PostgreSQL's defaults vacuum a table once 20 % of its rows are dead: 2 M dead versions for 10 M keys.
-- last_seen is vacuumed at 2 % instead, and analyzed at 5 %, so the dead versions stay a small share.
ALTER TABLE "last_seen" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
