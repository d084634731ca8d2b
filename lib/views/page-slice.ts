/**
 * One page of a list that is read whole and shown a page at a time (the services list, Find): the
 * page number comes from the URL, and one past the end (the list shrank since the link was made)
 * shows the last page.
 */
export function pageSlice<T>(items: readonly T[], rawPage: unknown, perPage: number) {
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const pageNumber = Math.min(pages, Math.max(1, Math.floor(Number(rawPage)) || 1));
  const firstIndex = (pageNumber - 1) * perPage;
  return { shown: items.slice(firstIndex, firstIndex + perPage), pageNumber, pages, firstIndex };
}
