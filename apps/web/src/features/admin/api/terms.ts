import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CguPublishInput } from '@hygie/domain';
import {
  adminCguVersionListSchema,
  adminCguVersionTextsSchema,
  cguPublishedSchema,
} from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const TERMS_VERSIONS_QUERY_KEY = ['admin', 'cgu'] as const;

/** GET /api/admin/cgu: the published terms versions, newest first, and the one in force. */
export function useTermsVersions() {
  const { api } = useServices();
  return useQuery({
    queryKey: TERMS_VERSIONS_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/admin/cgu', adminCguVersionListSchema, signal),
  });
}

/** GET /api/admin/cgu/:version: a version's text in every language (the new one starts from it). */
export function useTermsTexts(version: string | null) {
  const { api } = useServices();
  return useQuery({
    queryKey: [...TERMS_VERSIONS_QUERY_KEY, version],
    queryFn: ({ signal }) =>
      api.get(
        `/admin/cgu/${encodeURIComponent(version ?? '')}`,
        adminCguVersionTextsSchema,
        signal,
      ),
    enabled: version !== null,
    // The text of a published version never changes.
    staleTime: Infinity,
  });
}

/**
 * POST /api/admin/cgu: publishes a new version, in force from its effective date (today: at once;
 * later: `scheduled`); every user accepts it at the next sign-in from then on. 409
 * terms_version_exists for a version already published, terms_date_too_early for a date before
 * the version in force's.
 */
export function usePublishTerms() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CguPublishInput) => api.post('/admin/cgu', input, cguPublishedSchema),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: TERMS_VERSIONS_QUERY_KEY });
      // The terms in force changed for every screen that shows them.
      await queryClient.invalidateQueries({ queryKey: ['cgu'] });
    },
  });
}
