export { metrics } from "./registry";
export { instrumentRoutes } from "./instrument-routes";
export { watchStore } from "./store-gauges";
export { cleanupPassObserver, observeCleanupLag, observeCleanupPass } from "./cleanup";
export { countDecision } from "./decisions";
