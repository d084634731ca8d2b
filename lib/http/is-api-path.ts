/** Requests that the lean HTTP layer answers itself; everything else goes to Next. */
export function isApiPath(url: string | undefined): boolean {
  if (!url) return false;
  return (
    url.startsWith("/api/v1/") ||
    url === "/api/v1" ||
    url.startsWith("/api/health") ||
    url.startsWith("/api/metrics")
  );
}
