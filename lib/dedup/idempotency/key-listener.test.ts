import { describe, expect, it } from "vitest";
import { KeyListener } from "./key-listener";
import type { NotificationSource } from "./notification-source";

const silent: NotificationSource = { listen: async () => async () => undefined };

describe("the node's waiting room", () => {
  it("holds each credential to its share, and when full refuses the heaviest while a light one still waits", () => {
    const listener = new KeyListener(silent, 16);
    const a = Array.from({ length: 9 }, (_, i) => listener.subscribe("s", `a${i}`, { id: "token:a" }));
    expect(a.filter((w) => w === null)).toHaveLength(1);
    expect(listener.refusedFull).toBe(0);
    for (let i = 0; i < 8; i++) expect(listener.subscribe("s", `b${i}`, { id: "token:b" })).not.toBeNull();
    expect(listener.waiting).toBe(16);

    expect(listener.subscribe("s", "c", { id: "token:c" })).not.toBeNull();
    expect(listener.subscribe("s", "a-more", { id: "token:a" })).toBeNull();
    expect(listener.refusedFull).toBe(1);

    a[0]!.close();
    expect(listener.waiting).toBe(16);
    expect(listener.subscribe("s", "a-again", { id: "token:a", share: 20 })).toBeNull();
  });

  it("gives a token with its own limit that many waits, and callers without a holder only the node's bound", () => {
    const listener = new KeyListener(silent, 100);
    expect(Array.from({ length: 31 }, () => listener.subscribe("s", "k", { id: "token:big", share: 30 })).filter(Boolean)).toHaveLength(30);
    expect(Array.from({ length: 80 }, () => listener.subscribe("s", "k")).filter(Boolean)).toHaveLength(70);
  });
});
