/**
 * Adds `key` to a per-caller map kept to `max` entries, forgetting the one added longest ago
 * when full: what every per-caller memory of the door does, so that callers without number
 * (a new token hash or address per request) cannot grow it without bound. A forgotten caller
 * starts afresh, which never refuses it more than it would have been.
 */
export function addBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}
