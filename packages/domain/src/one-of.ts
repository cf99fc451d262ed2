/**
 * Whether `value` is one of `list`: a type guard for the `as const` lists of literals (languages,
 * brands…), whose own `includes` only takes values already of their type.
 */
export function isOneOf<T>(list: readonly T[], value: unknown): value is T {
  return list.some((item) => item === value);
}
