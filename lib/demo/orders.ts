/** A deterministic little order pipeline whose projections change at different rates. */
export interface Order {
  id: string;
  customer: { name: string; email: string; tier: "standard" | "gold" };
  status: "placed" | "paid" | "packed" | "shipped" | "delivered";
  items: { sku: string; qty: number; price: string }[];
  currency: string;
}

const STATUSES: Order["status"][] = ["placed", "paid", "packed", "shipped", "delivered"];
const NAMES = ["Ada Lovelace", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Ken Thompson", "Radia Perlman"];


export function newOrder(n: number, rnd: () => number): Order {
  const name = NAMES[n % NAMES.length]!;
  return {
    id: `O-${String(n).padStart(5, "0")}`,
    customer: { name, email: `${name.split(" ")[0]!.toLowerCase()}.${n}@example.com`, tier: rnd() < 0.2 ? "gold" : "standard" },
    status: "placed",
    items: [{ sku: `SKU-${Math.floor(rnd() * 90) + 10}`, qty: 1 + Math.floor(rnd() * 3), price: (5 + rnd() * 95).toFixed(2) }],
    currency: "EUR",
  };
}

/** One business event: mostly status moves, sometimes a new line item or a customer change. */
export function evolve(order: Order, rnd: () => number): Order {
  const roll = rnd();
  if (roll < 0.6) {
    const next = STATUSES[Math.min(STATUSES.indexOf(order.status) + 1, STATUSES.length - 1)]!;
    return { ...order, status: next };
  }
  if (roll < 0.8) {
    const item = { sku: `SKU-${Math.floor(rnd() * 90) + 10}`, qty: 1, price: (5 + rnd() * 95).toFixed(2) };
    return { ...order, items: [...order.items, item] };
  }
  return { ...order, customer: { ...order.customer, tier: order.customer.tier === "gold" ? "standard" : "gold" } };
}

export const total = (order: Order) => order.items.reduce((sum, i) => sum + i.qty * Number(i.price), 0).toFixed(2);
