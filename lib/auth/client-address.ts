import type { IncomingMessage } from "node:http";

/**
 * The client's address as weir's own server saw it. server.ts overwrites this
 * header on every request, so a client cannot choose its own address for the
 * login rate limit.
 */
export const CLIENT_ADDRESS_HEADER = "x-weir-client-ip";

/** The address to trust: the socket peer, or the hop-th X-Forwarded-For entry from the right behind trusted proxies. */
export function clientAddressOf(req: IncomingMessage, trustedProxyHops: number): string {
  const socket = req.socket.remoteAddress ?? "unknown";
  if (trustedProxyHops <= 0) return socket;
  const forwarded = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").map((s) => s.trim()).filter(Boolean);
  return hops[hops.length - trustedProxyHops] ?? socket;
}

export function stampClientAddress(req: IncomingMessage, trustedProxyHops: number): void {
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(req, trustedProxyHops);
}

export function clientAddressFrom(headers: Headers | undefined): string {
  return headers?.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}
