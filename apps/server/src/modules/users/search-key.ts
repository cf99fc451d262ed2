/** The admin search key of a person: "last first", lower-case, without accents. */
export function searchKey(
  firstName: string | null | undefined,
  lastName: string | null | undefined,
): string {
  return normalizeSearch(`${lastName ?? ''} ${firstName ?? ''}`);
}

/** How search input is compared with search keys. */
export function normalizeSearch(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}
