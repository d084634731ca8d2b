// Subscribes the Prometheus counters to the decision events of this process.
import "./decisions";
import "./journal";

export { metrics } from "./registry";
export { watchStore } from "./store-gauges";
export { cleanupPassObserver, observeCleanupBody, observeCleanupLag, observeCleanupPass } from "./cleanup";
export { observeRetentionPass } from "./retention";
export { countStoreError } from "./outcomes";
export { countDecision } from "./decisions";
export { watchConcurrency } from "./concurrency";
export { countCaller, watchHeaviestCaller, type CallerOutcome } from "./callers";
