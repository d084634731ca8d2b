import { total, type Order } from "./orders";

/** Demo services: each projects the order differently, so one event changes some and not others. */
export const DEMO_SERVICES = [
  {
    id: "orders-projection",
    displayName: "Orders read model",
    ignoredPaths: ["/meta/sentAt", "/meta/traceId"],
    includedPaths: [],
    historyDepth: 10,
    project: (o: Order, sentAt: string) => ({
      orderId: o.id,
      status: o.status,
      items: o.items,
      total: total(o),
      meta: { sentAt, traceId: `t-${Math.floor(Math.random() * 1e9).toString(16)}` },
    }),
  },
  {
    id: "search-indexer",
    displayName: "Search index adapter",
    ignoredPaths: ["/indexedAt"],
    includedPaths: [],
    historyDepth: 5,
    project: (o: Order, sentAt: string) => ({ id: o.id, customer: o.customer.name, status: o.status, indexedAt: sentAt }),
  },
  {
    id: "crm-sync",
    displayName: "CRM customer sync",
    ignoredPaths: [],
    includedPaths: [],
    historyDepth: 5,
    project: (o: Order) => ({ customer: { email: o.customer.email, tier: o.customer.tier } }),
  },
  {
    id: "billing-adapter",
    displayName: "Billing adapter",
    ignoredPaths: [],
    // The event carries the whole order; only the invoice decides whether billing has work to do.
    includedPaths: ["/invoice"],
    historyDepth: 0,
    project: (o: Order, sentAt: string) => ({
      invoice: { order: o.id, amount: total(o), currency: o.currency },
      order: { status: o.status, items: o.items.length },
      emittedAt: sentAt,
    }),
  },
] as const;
