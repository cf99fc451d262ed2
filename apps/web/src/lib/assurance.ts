import { useQuery } from '@tanstack/react-query';
import { assuranceSchema, type AssuranceLevel, type RequiredLevel } from '@hygie/domain';
import { useServices } from './services';

/** The key of every answer of GET /api/me/assurance (a step-up invalidates them all). */
export const ASSURANCE_QUERY_KEY = ['me', 'assurance'] as const;

/**
 * GET /api/me/assurance: the current session's level, methods and the account area's minimum;
 * with `level`, whether the session reaches it and the means that would (docs/api.md).
 */
export function useAssurance(level: RequiredLevel | null = null) {
  const { api } = useServices();
  return useQuery({
    queryKey: [...ASSURANCE_QUERY_KEY, level],
    queryFn: ({ signal }) =>
      api.request('GET', '/me/assurance', {
        schema: assuranceSchema,
        ...(level && { query: { level } }),
        ...(signal && { signal }),
      }),
  });
}

/** A level's name, as a list or a label shows it ("Substantiel"). */
export const LEVEL_NAMES = {
  one_factor: 'common:assurance.levels.one_factor',
  low: 'common:assurance.levels.low',
  substantial: 'common:assurance.levels.substantial',
  high: 'common:assurance.levels.high',
} as const satisfies Record<AssuranceLevel, string>;

/** A level inside a sentence ("un niveau de sécurité substantiel"). */
export const LEVEL_ADJECTIVES = {
  one_factor: 'common:assurance.adjectives.one_factor',
  low: 'common:assurance.adjectives.low',
  substantial: 'common:assurance.adjectives.substantial',
  high: 'common:assurance.adjectives.high',
} as const satisfies Record<AssuranceLevel, string>;

/** What a level means, in plain words: which means of signing in reach it. */
export const LEVEL_EXPLANATIONS = {
  one_factor: 'common:assurance.explanations.one_factor',
  low: 'common:assurance.explanations.low',
  substantial: 'common:assurance.explanations.substantial',
  high: 'common:assurance.explanations.high',
} as const satisfies Record<AssuranceLevel, string>;
