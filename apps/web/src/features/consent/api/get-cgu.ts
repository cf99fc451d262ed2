import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CguStatus, CguText } from '@hygie/domain';
import { cguStatusAnswer, cguTextAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

export type { CguStatus, CguText };

export const CGU_QUERY_KEY = ['cgu'] as const;

/**
 * GET /api/cgu: the terms in force in the current language (their text and its hash), their
 * date, the version this user accepted. Fetched again when the language changes.
 */
export function useCguStatus() {
  const { api } = useServices();
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [...CGU_QUERY_KEY, i18n.language],
    queryFn: ({ signal }) => api.get('/cgu', cguStatusAnswer, signal),
  });
}

/** GET /api/cgu/versions/:version: a published version's text, as it was published. */
export function useCguVersion(version: string | null) {
  const { api } = useServices();
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [...CGU_QUERY_KEY, 'version', version, i18n.language],
    queryFn: ({ signal }) =>
      api.get(`/cgu/versions/${encodeURIComponent(version ?? '')}`, cguTextAnswer, signal),
    enabled: version !== null,
  });
}
