import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { usePublicConfig } from '../lib/config';
import { EnvironmentContext, type ClientEnvironment, type TextOptions } from '../lib/environment';

function useRouterSearchParams(): URLSearchParams {
  return useSearchParams()[0];
}

/**
 * The whole client's environment (lib/environment.tsx): i18next's texts, React Router's links and
 * parameters, the configuration of TanStack Query. Made again when the language
 * changes, so the components that read texts draw again.
 */
export function AppEnvironment({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const environment = useMemo(
    (): ClientEnvironment => ({
      texts: {
        language,
        t: (key: string, options?: TextOptions) =>
          options === undefined ? i18n.t(key) : i18n.t(key, options),
        exists: (key) => i18n.exists(key),
      },
      changeLanguage: (next) => void i18n.changeLanguage(next),
      Link: RouterLink,
      useSearchParams: useRouterSearchParams,
      usePublicConfig,
    }),
    [i18n, language],
  );
  return <EnvironmentContext value={environment}>{children}</EnvironmentContext>;
}
