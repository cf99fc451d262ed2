import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicConfigSchema, SESSION_WARNING_SECONDS, type PublicConfig } from '@hygie/domain';
import type { AppServices } from './services';
import { useServices } from './services';

export const CONFIG_QUERY_KEY = ['config'] as const;

type ConfigServices = Pick<AppServices, 'api' | 'config'>;

/** Takes the configuration in: the API client sends the configured anti-forgery cookie. */
function takeConfig(services: ConfigServices, config: PublicConfig): PublicConfig {
  services.api.setXsrfCookieName(config.xsrfCookieName);
  services.config.set(config);
  return config;
}

/** GET /api/config; also points the API client at the configured anti-forgery cookie. */
export function configQueryOptions(services: ConfigServices) {
  return queryOptions({
    queryKey: CONFIG_QUERY_KEY,
    queryFn: async ({ signal }): Promise<PublicConfig> =>
      takeConfig(services, await services.api.get('/config', publicConfigSchema, signal)),
    staleTime: Infinity,
  });
}

/** The configuration the server gave with its page (app/page-state.ts), as if fetched. */
export function seedConfig(
  services: ConfigServices & Pick<AppServices, 'queryClient'>,
  config: PublicConfig,
): void {
  services.queryClient.setQueryData(CONFIG_QUERY_KEY, takeConfig(services, config));
}

export function usePublicConfig(): PublicConfig | undefined {
  const services = useServices();
  return useQuery(configQueryOptions(services)).data;
}

export function useSessionWarningSeconds(): number {
  return usePublicConfig()?.sessionWarningSeconds ?? SESSION_WARNING_SECONDS;
}
