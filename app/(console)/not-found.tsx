import type { Metadata } from "next";
import { MissingId } from "@/components/ui/missing-id";
import { NotFoundPanel } from "@/components/ui/not-found-panel";

export const metadata: Metadata = { title: "Not found" };

/** What notFound() shows inside the console (answered with HTTP 404): the navigation stays. */
export default function ConsoleNotFound() {
  return (
    <NotFoundPanel missing={<MissingId />}>
      No service, key, consumer group, idempotency key or reset matches this address. It may have been mistyped, reset, expired or never
      created: weir creates a service when it is registered and a consumer group with its first claim or TTL setting.
    </NotFoundPanel>
  );
}
