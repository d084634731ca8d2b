import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "@/lib/actions/auth";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { DEMO_ADMIN_EMAIL } from "@/lib/auth/demo-constants";
import { handleDemoSignIn } from "@/lib/auth/http-handler";
import { runWithRequestHeaders } from "@/lib/auth/request-headers";
import { safeNextPath } from "@/lib/auth/safe-next";
import { createUser } from "@/lib/auth/users/create-user";
import { browserHeaders, signedInUser, TEST_ORIGIN, type TestUser } from "@/test/auth-fixtures";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

/** The query string of the reported attack: after decoding, "/", a tab, "/evil.invalid/x". */
const ATTACK = decodeURIComponent("%2F%09%2Fevil.invalid%2Fx");
const ORIGIN = "http://weir.invalid";

/** Where a browser goes when it follows `location` from a page of the console. */
const followed = (location: string) => new URL(location, ORIGIN);

describe("safeNextPath", () => {
  it("keeps same-origin paths, normalised the way the browser will read them", () => {
    const kept: [string, string][] = [
      ["/keys?service=a", "/keys?service=a"],
      ["/audit#top", "/audit#top"],
      ["  /keys", "/keys"],
      ["/ke\tys", "/keys"],
      ["/%09/", "/%09/"],
      ["%2F%2F", "/%2F%2F"],
      ["/\u2215evil", "/%E2%88%95evil"],
      ["/\uff0fevil", "/%EF%BC%8Fevil"],
      ["/a/../tokens", "/tokens"],
      ["http:relative", "/relative"],
    ];
    for (const [next, expected] of kept) expect(safeNextPath(next, ORIGIN), JSON.stringify(next)).toBe(expected);
  });

  it("sends everything that would leave the console, or loop, to /", () => {
    const refused = [
      ATTACK,
      "/\\",
      "/\\evil.example",
      "\\/\\/evil.example",
      "\\\\evil.example",
      "//evil",
      "///evil",
      "/\t/evil",
      "/\r\n/evil",
      "\n//evil",
      "  //evil",
      "\u0000//evil",
      "/.//evil",
      "/..//evil",
      "https:evil",
      "https://evil.example/keys",
      "ftp://evil.example",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      `${ORIGIN.replace("http://", "http://user:pw@")}/keys`,
      "/sign-in",
      "/sign-in?next=/keys",
      "/%73ign-in",
      "/api/auth/demo",
      "/API/AUTH/demo",
      "",
      null,
      undefined,
      `/${"a".repeat(2000)}`,
    ];
    for (const next of refused) expect(safeNextPath(next, ORIGIN), JSON.stringify(next)).toBe("/");
  });

  it("never returns a location that a browser resolves to another origin", () => {
    const seeds = ["/", "\\", "\t", "\r", "\n", " ", ".", "%2F", "%5C", "\u2215", "\uff0f", "@", ":", "evil.example", "?", "#"];
    for (const a of seeds) for (const b of seeds) for (const c of seeds) {
      const next = `${a}${b}${c}evil.example/x`;
      const location = safeNextPath(next, ORIGIN);
      expect(location.startsWith("/") && !location.startsWith("//"), JSON.stringify(next)).toBe(true);
      expect(followed(location).origin, JSON.stringify(next)).toBe(ORIGIN);
    }
  });
});

describe("every door that redirects after sign-in", () => {
  let store: TestDatabase;
  let user: TestUser;
  const demoPassword = `demo-${Date.now()}-password`;

  beforeAll(async () => {
    store = await createTestDatabase();
    (globalThis as Record<symbol, { promise?: Promise<unknown> }>)[Symbol.for("weir.store")]!.promise = Promise.resolve(store);
    user = await signedInUser(store.db, "viewer");
    await createUser({ db: store.db, actor: SYSTEM_ACTOR, input: { email: DEMO_ADMIN_EMAIL, password: demoPassword, role: "admin" } });
    ((globalThis as Record<symbol, { password?: string }>)[Symbol.for("weir.demo-admin")] ??= {}).password = demoPassword;
    process.env.WEIR_DEMO = "1";
  });
  afterAll(() => {
    delete process.env.WEIR_DEMO;
  });

  it("the sign-in form lands on / for the reported next, and on the page for a good one", async () => {
    const submit = (next: string) => {
      const form = new FormData();
      form.set("email", user.email);
      form.set("password", user.password);
      form.set("next", next);
      return runWithRequestHeaders(browserHeaders({ "next-action": "test" }), () => signIn(null, form)).catch((err: { digest?: string }) => err.digest);
    };
    expect(await submit(ATTACK)).toMatch(/^NEXT_REDIRECT;[a-z]+;\/;/);
    expect(await submit("/keys?service=a")).toMatch(/^NEXT_REDIRECT;[a-z]+;\/keys\?service=a;/);
  });

  it("the demo sign-in lands on / for the reported next", async () => {
    const response = await handleDemoSignIn(new Request(`${TEST_ORIGIN}/api/auth/demo?next=${encodeURIComponent(ATTACK)}`, { headers: browserHeaders() }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    const good = await handleDemoSignIn(new Request(`${TEST_ORIGIN}/api/auth/demo?next=%2Ftokens`, { headers: browserHeaders({}, "203.0.113.9") }));
    expect(good.headers.get("location")).toBe("/tokens");
  });
});
