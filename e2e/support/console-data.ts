import type { APIRequestContext } from "@playwright/test";

/** Data for the console specs, made through the real machine API like a service would. */
async function send(request: APIRequestContext, method: "post" | "put" | "get", path: string, data?: unknown) {
  const response = await request[method](path, data === undefined ? undefined : { data });
  if (!response.ok()) throw new Error(`${method.toUpperCase()} ${path}: ${response.status()} ${await response.text()}`);
  return response.json();
}

export async function claimAll(request: APIRequestContext, items: { consumerGroup: string; messageId: string }[]) {
  return (await send(request, "post", "/api/v1/claim/batch", { items })).results as { decision: string }[];
}

export async function setScope(request: APIRequestContext, scope: string, settings: { lockSeconds?: number; retentionSeconds?: number }) {
  return send(request, "put", `/api/v1/idempotency-scopes/${scope}`, { ...settings, reason: "e2e setup" });
}

export async function beginKey(request: APIRequestContext, scope: string, key: string, body: unknown) {
  return send(request, "post", `/api/v1/idempotency/${scope}/begin`, { key, request: body });
}

/** Completes a begun key with a stored response, as its caller would. */
export async function completeKey(request: APIRequestContext, scope: string, key: string, body: unknown, attempt: number, response: { status: number; body: string }) {
  return send(request, "post", `/api/v1/idempotency/${scope}/complete`, { key, request: body, attempt, response: { ...response, headers: { "content-type": "application/json" } } });
}

export async function keyState(request: APIRequestContext, serviceId: string, messageId: string) {
  const response = await request.get(`/api/v1/services/${serviceId}/keys/${encodeURIComponent(messageId)}`);
  if (response.status() === 404) return null;
  if (!response.ok()) throw new Error(`key ${serviceId}/${messageId}: ${response.status()} ${await response.text()}`);
  return (await response.json()).state as { version: number; hash: string };
}

/** Message ids `${prefix}001`… with zero-padded numbers, so that id order is numeric order. */
export const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(3, "0")}`);

/** Batches stay under the API's per-request item limit. */
export async function inChunks<T>(items: T[], size: number, send: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await send(items.slice(i, i + size));
}
