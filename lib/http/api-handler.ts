import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ZodType } from "zod";
import type { Store } from "@/db/client";
import { assertInScope } from "@/lib/auth/scopes";
import { UnauthorizedError } from "@/lib/errors";
import { ANONYMOUS, guardRoutes } from "./guard-routes";
import { canonicalizeJson } from "@/lib/dedup/canonical/canonical-json";
import { readBody } from "./body";
import { errorToResult, writeResult } from "./respond";
import { Router } from "./router";
import type { ApiContext, Route } from "./types";

/** Strict JSON (duplicate fields and trailing garbage refused, with a position) for the non-hot routes. */
function parseStrictJson(text: string): unknown {
  canonicalizeJson(text);
  return JSON.parse(text);
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Serves the machine API with weir's own handlers. The store is resolved per
 * request so that a store that was down at boot is picked up once it is back.
 */
export function createApiHandler(routes: Route[], getStore: () => Promise<Store>) {
  // Routes from createApiRoutes come guarded (inside their metrics); any other route is guarded here.
  const router = new Router(guardRoutes(routes, getStore));
  return async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = requestIdOf(req);
    try {
      const url = new URL(req.url ?? "/", "http://weir.local");
      const { handler, params } = router.match(req.method ?? "GET", url.pathname);
      let bodyText: Promise<string> | undefined;
      const text = () => (bodyText ??= readBody(req));
      const ctx: ApiContext = {
        req,
        url,
        params,
        requestId,
        actor: ANONYMOUS,
        requireScope(kind, id) {
          assertInScope(this.actor, kind, id);
        },
        store: getStore,
        text,
        json: async <T>(schema: ZodType<T>) => schema.parse(parseStrictJson(await text())),
      };
      const result = await handler(ctx);
      writeResult(res, result, requestId);
    } catch (err) {
      if (res.headersSent) return void res.destroy();
      const result = errorToResult(err, requestId);
      if (err instanceof UnauthorizedError) result.headers = { ...result.headers, "www-authenticate": 'Bearer realm="weir"' };
      writeResult(res, result, requestId);
    }
  };
}
