import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicConfigSchema, SESSION_WARNING_SECONDS, type PublicConfig } from '@hygie/domain';
import type { AppServices } from './services';
import { useServices } from './services';

export const CONFIG_QUERY_KEY = ['config'] as const;

/** GET /api/config; also points the API client at the configured anti-forgery cookie. */
export function configQueryOptions(services: Pick<AppServices, 'api' | 'config'>) {
  return queryOptions({
    queryKey: CONFIG_QUERY_KEY,
    queryFn: async ({ signal }): Promise<PublicConfig> => {
      const config = await services.api.get('/config', publicConfigSchema, signal);
      services.api.setXsrfCookieName(config.xsrfCookieName);
      services.config.set(config);
      return config;
    },
    staleTime: Infinity,
  });
}

export function usePublicConfig(): PublicConfig | undefined {
  const services = useServices();
  return useQuery(configQueryOptions(services)).data;
}

export function useSessionWarningSeconds(): number {
  return usePublicConfig()?.sessionWarningSeconds ?? SESSION_WARNING_SECONDS;
}
