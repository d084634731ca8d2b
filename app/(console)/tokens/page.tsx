import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { loadConsoleTokens } from "@/lib/auth/tokens/list-tokens";
import { TokensClient } from "./tokens-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  const actor = await requireConsoleActor("read");
  const tokens = await loadConsoleTokens(actor);
  return (
    <>
      <PageHeader
        title="API tokens"
        description={
          <>
            Services call <code>/api/v1</code> with <code>Authorization: Bearer weir_…</code>. A token only reaches the services, consumer groups
            and idempotency scopes it lists (<code>*</code> for all). Revoking takes effect within 10 seconds on every node. On each node a token
            holds at most its share of the requests in flight (a quarter of the node&apos;s limit unless it has its own) and, if set, its
            requests per second; past them it is answered 429, and the other tokens are not slowed. A token past its expiry is
            refused with 401 <code>token_expired</code>.
          </>
        }
      />
      <TokensClient tokens={tokens} canManage={actor.role === "admin"} />
    </>
  );
}
