import { createHash } from "node:crypto";
import type { DBAdapter, Where } from "better-auth/types";

/**
 * Better Auth keeps each session's bearer token in its `token` column, and has
 * no option to hash it (1.7). This wraps its database adapter so that column
 * holds SHA-256(token) instead: every write hashes it, every lookup hashes the
 * value it searches for, and rows read back by token carry the token the
 * caller presented, which Better Auth uses to refresh or end the session.
 * A copy of the database (a replica, a backup) then holds no usable cookie.
 */
export function sessionTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const SESSION = "session";

type Row = Record<string, unknown> | null;

/** The where clause with token values hashed, and hash -> presented token for restoring rows. */
function hashWhere(where: Where[] | undefined, seen: Map<string, string>): Where[] | undefined {
  return where?.map((clause) => {
    if (clause.field !== "token") return clause;
    const hash = (token: unknown) => {
      if (typeof token !== "string") return token;
      const hashed = sessionTokenHash(token);
      seen.set(hashed, token);
      return hashed;
    };
    const value = Array.isArray(clause.value) ? (clause.value as unknown[]).map(hash) : hash(clause.value);
    return { ...clause, value } as Where;
  });
}

function restore<T>(row: T, seen: Map<string, string>): T {
  const token = (row as Row)?.token;
  if (typeof token !== "string" || !seen.has(token)) return row;
  return { ...(row as Record<string, unknown>), token: seen.get(token) } as T;
}

function hashData<T extends Record<string, unknown> | undefined>(data: T, seen: Map<string, string>): T {
  if (!data || typeof data.token !== "string") return data;
  const hashed = sessionTokenHash(data.token);
  seen.set(hashed, data.token);
  return { ...data, token: hashed };
}

type AnyAdapter = Omit<DBAdapter, "transaction"> & { transaction?: DBAdapter["transaction"] };

export function withHashedSessionTokens<A extends AnyAdapter>(adapter: A): A {
  const wrapped: AnyAdapter = {
    ...adapter,
    async create(args) {
      if (args.model !== SESSION) return adapter.create(args);
      const seen = new Map<string, string>();
      return restore(await adapter.create({ ...args, data: hashData(args.data as Record<string, unknown>, seen) as never }), seen);
    },
    async findOne(args) {
      if (args.model !== SESSION) return adapter.findOne(args);
      const seen = new Map<string, string>();
      return restore(await adapter.findOne({ ...args, where: hashWhere(args.where, seen)! }), seen);
    },
    async findMany(args) {
      if (args.model !== SESSION) return adapter.findMany(args);
      const seen = new Map<string, string>();
      return (await adapter.findMany({ ...args, where: hashWhere(args.where, seen) })).map((row) => restore(row, seen));
    },
    async count(args) {
      return adapter.count(args.model === SESSION ? { ...args, where: hashWhere(args.where, new Map()) } : args);
    },
    async update(args) {
      if (args.model !== SESSION) return adapter.update(args);
      const seen = new Map<string, string>();
      const result = await adapter.update({ ...args, where: hashWhere(args.where, seen)!, update: hashData(args.update, seen) });
      return restore(result, seen);
    },
    async updateMany(args) {
      if (args.model !== SESSION) return adapter.updateMany(args);
      const seen = new Map<string, string>();
      return adapter.updateMany({ ...args, where: hashWhere(args.where, seen)!, update: hashData(args.update, seen) });
    },
    async delete(args) {
      return adapter.delete(args.model === SESSION ? { ...args, where: hashWhere(args.where, new Map())! } : args);
    },
    async deleteMany(args) {
      return adapter.deleteMany(args.model === SESSION ? { ...args, where: hashWhere(args.where, new Map())! } : args);
    },
    async consumeOne(args) {
      if (args.model !== SESSION) return adapter.consumeOne(args);
      const seen = new Map<string, string>();
      return restore(await adapter.consumeOne({ ...args, where: hashWhere(args.where, seen)! }), seen);
    },
    async incrementOne(args) {
      if (args.model !== SESSION) return adapter.incrementOne(args);
      const seen = new Map<string, string>();
      return restore(await adapter.incrementOne({ ...args, where: hashWhere(args.where, seen)!, set: hashData(args.set, seen) }), seen);
    },
  };
  if (adapter.transaction) wrapped.transaction = (callback) => adapter.transaction!((trx) => callback(withHashedSessionTokens(trx)));
  return wrapped as A;
}
