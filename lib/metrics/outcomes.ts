import { metrics } from "./registry";

export function countStoreError(source: string): void {
  metrics.storeErrors.inc({ source });
}
