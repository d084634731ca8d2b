"use client";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { missingIdOf } from "@/lib/views/missing-id";
import { VisibleText } from "./visible-text";

/** On a 404: the id the address asked for, and a Find for it across every service, group and scope. */
export function MissingId() {
  const id = missingIdOf(usePathname(), new URLSearchParams(useSearchParams().toString()));
  if (!id) return null;
  return (
    <p data-testid="missing-id">
      Nothing was found for <code className="break"><VisibleText text={id} /></code>.{" "}
      <Link href={`/find?q=${encodeURIComponent(id)}`}>Find “{id}” across every service, group and scope</Link>
    </p>
  );
}
