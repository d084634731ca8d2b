/** Where a chart bucket leads: a service's key browser for that window, or a consumer group's page. */
export type BucketLink = { kind: "service"; id: string } | { kind: "group"; id: string };

export function bucketHref(link: BucketLink, t: number, stepSeconds: number): string {
  if (link.kind === "group") return `/groups/${encodeURIComponent(link.id)}`;
  // Keys whose last change falls in the bucket: the browser's from/to are minute-precise UTC instants.
  const from = new Date(t).toISOString().slice(0, 16);
  const to = new Date(t + stepSeconds * 1000).toISOString().slice(0, 16);
  return `/services/${encodeURIComponent(link.id)}?${new URLSearchParams({ from, to }).toString()}`;
}
