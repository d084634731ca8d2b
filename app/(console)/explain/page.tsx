import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { param, type SearchParams } from "@/lib/validation/console-common";
import { ExplainClient } from "./explain-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Explain" };

export default async function ExplainPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireConsoleActor("read");
  const query = await searchParams;
  const text = (value: unknown) => (typeof param(value) === "string" ? String(param(value)).slice(0, 512) : "");
  return (
    <>
      <PageHeader
        title="Explain a decision"
        description="Paste a payload to see its canonical form, its hash, the stored state and what check would answer. Nothing is written."
      />
      <ExplainClient initialServiceId={text(query.service)} initialMessageId={text(query.message)} />
    </>
  );
}
