import type pg from "pg";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/types";
import type { OrderPaid } from "./events";

/**
 * The consumer's own side effect: one shipment row per paid order. There is
 * deliberately no unique constraint on order_id or message_id: exactly-once
 * here comes from weir, and the tests would notice a second row.
 */
export async function ensureShipmentsTable(pool: pg.Pool): Promise<void> {
  await pool.query(`
    create table if not exists example_shipments (
      id bigserial primary key,
      order_id text not null,
      message_id text not null,
      amount text not null,
      consumer text not null,
      created_at timestamptz not null default now()
    )`);
}

/** Inside the caller's transaction (library mode). */
export async function insertShipmentTx(tx: DbOrTx, event: OrderPaid, messageId: string, consumer: string): Promise<void> {
  await tx.execute(sql`insert into example_shipments (order_id, message_id, amount, consumer) values (${event.orderId}, ${messageId}, ${event.amount}, ${consumer})`);
}

/** Autocommit, on the consumer's own pool (HTTP mode). */
export async function insertShipment(pool: pg.Pool, event: OrderPaid, messageId: string, consumer: string): Promise<void> {
  await pool.query("insert into example_shipments (order_id, message_id, amount, consumer) values ($1, $2, $3, $4)", [event.orderId, messageId, event.amount, consumer]);
}

export async function shipmentsPerOrder(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ order_id: string; n: number }>("select order_id, count(*)::int as n from example_shipments group by order_id");
  return new Map(rows.map((row) => [row.order_id, row.n]));
}
