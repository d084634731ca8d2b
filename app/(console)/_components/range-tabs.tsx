import Link from "next/link";
import { hrefWith } from "@/components/ui/pager";
import { RANGES, type RangeKey } from "@/lib/views/ranges";

export function RangeTabs({ current, kind, subject }: { current: RangeKey; kind: string; subject: string | null }) {
  return (
    <nav className="tabs" aria-label="Time range">
      {(Object.keys(RANGES) as RangeKey[]).map((key) => (
        <Link key={key} href={hrefWith("/", { range: key, kind, subject })} aria-current={key === current ? "page" : undefined}>
          {RANGES[key].label}
        </Link>
      ))}
    </nav>
  );
}
