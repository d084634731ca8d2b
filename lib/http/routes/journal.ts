import { readJournalLevel, readJournalRange, readKeyJournal, journalSubjectFor } from "@/lib/journal/read";
import { setJournalLevel } from "@/lib/journal/set-level";
import { errorSchema } from "@/lib/validation/common";
import {
  journalKeyResponseSchema,
  journalLevelResponseSchema,
  journalRangeResponseSchema,
  MAX_JOURNAL_PAGE,
  MAX_JOURNAL_RANGE_MS,
  setJournalLevelResponseSchema,
  setJournalLevelSchema,
} from "@/lib/validation/journal";
import { allowed } from "../access";
import type { ApiContext } from "../types";
import { ok, type Route } from "../types";

// The subject's kind follows the mode in the path (service, consumer group, scope), so the
// verbs authorise it (lib/journal/read.ts) before anything is read; the rule here is the role's.
const subjectOf = (ctx: ApiContext) => ({ mode: ctx.params[0] ?? "", subject: ctx.params[1] ?? "" });

/** A query parameter as given, "" as absent; repeated ones are read where a list is meant. */
const query = (ctx: ApiContext, name: string) => ctx.url.searchParams.get(name) || undefined;

const MODES = "mode: last_seen (a service), window (a consumer group) or idempotency (a scope)";

export const journalRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/v1/journal/:mode/:subject",
    access: allowed("read"),
    doc: {
      summary:
        `A subject's decisions in a time range, oldest first, with the minutes whose entries were dropped (gaps); ${MODES}. ` +
        `Query: from, to (ISO 8601, required; at most ${MAX_JOURNAL_RANGE_MS / 86_400_000} days), decision (repeat or comma-separate), ` +
        `caller, key, limit (1-${MAX_JOURNAL_PAGE}, default 100), cursor (the previous page's nextCursor)`,
      tags: ["journal"],
      responses: { 200: journalRangeResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const input = {
        ...subjectOf(ctx),
        from: query(ctx, "from"),
        to: query(ctx, "to"),
        decision: ctx.url.searchParams.getAll("decision"),
        caller: query(ctx, "caller"),
        key: query(ctx, "key"),
        cursor: query(ctx, "cursor"),
        limit: query(ctx, "limit"),
      };
      return ok(await readJournalRange({ db: (await ctx.store()).db, actor: ctx.actor, input }));
    },
  },
  {
    method: "GET",
    path: "/api/v1/journal/:mode/:subject/keys/:key",
    access: allowed("read"),
    doc: {
      summary: `One key's decisions, newest first: each answer, when, to which caller, with its request and trace ids; ${MODES}. Query: limit (1-${MAX_JOURNAL_PAGE}, default 100), before (the previous page's nextBefore)`,
      tags: ["journal"],
      responses: { 200: journalKeyResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const input = { ...subjectOf(ctx), key: ctx.params[2] ?? "", before: query(ctx, "before"), limit: query(ctx, "limit") };
      return ok(await readKeyJournal({ db: (await ctx.store()).db, actor: ctx.actor, input }));
    },
  },
  {
    method: "GET",
    path: "/api/v1/journal/:mode/:subject/level",
    access: allowed("read"),
    doc: {
      summary: `What the journal keeps of a subject's answers: all, changes_and_duplicates (all but new and started) or off; ${MODES}`,
      tags: ["journal"],
      responses: { 200: journalLevelResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => ok(await readJournalLevel({ db: (await ctx.store()).db, actor: ctx.actor, input: subjectOf(ctx) })),
  },
  {
    method: "PUT",
    path: "/api/v1/journal/:mode/:subject/level",
    access: allowed("operate"),
    doc: {
      summary: "Set what the journal keeps of a subject's answers; applies on every node within seconds, audited; entries already kept stay until retention",
      tags: ["journal"],
      request: setJournalLevelSchema,
      responses: { 200: setJournalLevelResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const { mode, subject, kind } = journalSubjectFor(ctx.actor, "operate", subjectOf(ctx));
      const body = await ctx.json(setJournalLevelSchema);
      const result = await setJournalLevel({ db: (await ctx.store()).db, actor: ctx.actor, input: { kind, subject, ...body } });
      return ok({ mode, ...result });
    },
  },
];
