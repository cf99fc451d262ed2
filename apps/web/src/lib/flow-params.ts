/**
 * The query parameters that continue a sign-in flow (where to go once signed in). The guard
 * carries them from one security screen to the next (rule 6); screens that navigate on their own
 * keep them too.
 */
export const CARRIED_QUERY_PARAMS = ['target_uri', 'redirect'] as const;

/** The flow parameters of a query string (`?target_uri=…&redirect=…`). */
export function flowParams(search: string): URLSearchParams {
  const source = new URLSearchParams(search);
  const params = new URLSearchParams();
  for (const name of CARRIED_QUERY_PARAMS) {
    const value = source.get(name);
    if (value !== null) params.set(name, value);
  }
  return params;
}

/** `path` with `extra` query parameters and the flow parameters of `search`. */
export function withFlowParams(
  path: string,
  search: string,
  extra: Record<string, string> = {},
): string {
  const params = flowParams(search);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
