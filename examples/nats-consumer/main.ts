import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import pg from "pg";
import { createWeirClient } from "@weir/client";
import { startConsumer, type ConsumerHooks, type DedupMode } from "./consumer";
import { ensureStream } from "./events";
import { ensureShipmentsTable } from "./shipments";

/**
 * The shipper as a process:
 *   NATS_URL, DATABASE_URL (its own database), STREAM, SUBJECT, DURABLE,
 *   DEDUP_MODE=library|http (http also needs WEIR_URL and WEIR_TOKEN), CONSUMER_GROUP,
 *   IN_FLIGHT (messages handled at once, default 16; over http their claims travel as batches).
 * CRASH_AT=before-commit:<orderId> | before-ack:<orderId> kills the process
 * (SIGKILL, no cleanup) at that moment, to show a crash does not ship twice.
 */
const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

function crashHooks(spec: string | undefined): ConsumerHooks {
  if (!spec) return {};
  const [stage, orderId] = spec.split(":");
  const die = (at: string) => (event: { orderId: string }) => {
    if (stage === at && event.orderId === orderId) {
      console.log(`[shipper] crashing ${at} ${orderId}`);
      process.kill(process.pid, "SIGKILL");
    }
  };
  return { beforeCommit: die("before-commit"), beforeAck: die("before-ack") };
}

async function main(): Promise<void> {
  const nats = await connect({ servers: env("NATS_URL", "127.0.0.1:4222") });
  const pool = new pg.Pool({ connectionString: env("DATABASE_URL"), max: 4 });
  const stream = env("STREAM", "ORDERS");
  const durable = env("DURABLE", "shipper");
  await ensureStream(await jetstreamManager(nats), stream, env("SUBJECT", "orders.paid"), durable, Number(env("ACK_WAIT_MS", "30000")));
  await ensureShipmentsTable(pool);
  const consumerGroup = env("CONSUMER_GROUP", "shipper");
  const mode: DedupMode =
    env("DEDUP_MODE", "library") === "http"
      ? { kind: "http", consumerGroup, client: createWeirClient({ baseUrl: env("WEIR_URL"), token: env("WEIR_TOKEN") }) }
      : { kind: "library", consumerGroup };
  const running = await startConsumer({ nats, stream, durable, pool, mode, name: env("CONSUMER_NAME", `shipper-${process.pid}`), hooks: crashHooks(process.env.CRASH_AT), inFlight: Number(env("IN_FLIGHT", "16")) });
  console.log(`[shipper] consuming ${stream}/${durable} (${mode.kind} mode)`);
  const stop = async () => {
    await running.stop();
    await nats.drain();
    await pool.end();
    console.log(`[shipper] stopped: ${JSON.stringify(running.stats)}`);
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}

main().catch((err: Error) => {
  console.error(`[shipper] failed: ${err.message}`);
  process.exit(1);
});
