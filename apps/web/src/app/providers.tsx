import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { BrandContext } from '../lib/brand';
import { ServicesContext, type AppServices } from '../lib/services';
import { AppEnvironment } from './app-environment';

/**
 * The contexts every screen needs. MUI's theme is not one of them: it loads with the screens that
 * use MUI (mui-root.tsx), so the login page renders without it.
 */
export function AppProviders({
  services,
  i18n,
  children,
}: {
  services: AppServices;
  i18n: I18n;
  children: ReactNode;
}) {
  return (
    <ServicesContext value={services}>
      <BrandContext value={services.brand}>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={services.queryClient}>
            <AppEnvironment>{children}</AppEnvironment>
          </QueryClientProvider>
        </I18nextProvider>
      </BrandContext>
    </ServicesContext>
  );
}
