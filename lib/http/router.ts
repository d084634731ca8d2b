import { NotFoundError, WeirError } from "@/lib/errors";
import type { Route, RouteHandler } from "./types";

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  handler: RouteHandler;
}

function compile(route: Route): CompiledRoute {
  const source = route.path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "([^/]+)" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return { method: route.method, pattern: new RegExp(`^${source}$`), handler: route.handler };
}

export class MethodNotAllowedError extends WeirError {
  constructor(allowed: string[]) {
    super(405, "invalid_request", `method not allowed; use ${allowed.join(", ")}`);
  }
}

/** A small table router: the API has a few dozen routes and must stay off Next's request path. */
export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: Route[]) {
    this.routes = routes.map(compile);
  }

  match(method: string, pathname: string): { handler: RouteHandler; params: string[] } {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params = found.slice(1).map((part) => {
        try {
          return decodeURIComponent(part);
        } catch {
          throw new NotFoundError(`no route for ${pathname}`);
        }
      });
      return { handler: route.handler, params };
    }
    if (allowed.length > 0) throw new MethodNotAllowedError(allowed);
    throw new NotFoundError(`no route for ${method} ${pathname}`);
  }
}
