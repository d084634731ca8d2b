import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";

/** Specs make their own data through the real API, under unique ids. */
export const uniqueId = (prefix: string) => `${prefix}-${randomBytes(3).toString("hex")}`;

export async function registerService(request: APIRequestContext, id: string, settings: Record<string, unknown> = {}) {
  const response = await request.put(`/api/v1/services/${id}`, { data: { displayName: id, ...settings } });
  if (!response.ok()) throw new Error(`register ${id}: ${response.status()} ${await response.text()}`);
}

export async function checkAll(request: APIRequestContext, items: { serviceId: string; messageId: string; payload: unknown }[]) {
  const response = await request.post("/api/v1/check/batch", { data: { items } });
  if (!response.ok()) throw new Error(`batch check: ${response.status()} ${await response.text()}`);
  return (await response.json()).results as { decision: string; version: number }[];
}
