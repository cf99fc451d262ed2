import type { ReactNode } from 'react';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrandContext } from '../lib/brand';
import { directionOf } from '../lib/language';
import { ServicesContext, type AppServices } from '../lib/services';
import { createAppTheme, emotionCache } from './theme';

function ThemedRoot({ services, children }: { services: AppServices; children: ReactNode }) {
  const { i18n } = useTranslation();
  const direction = directionOf(i18n.language);
  const theme = useMemo(
    () => createAppTheme(services.brand, direction),
    [services.brand, direction],
  );
  return (
    <CacheProvider value={emotionCache(direction)}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <GlobalStyles
          styles={{
            // Visible focus for everything reachable by keyboard (WCAG 2.4.7).
            'a:focus-visible, [tabindex]:not([tabindex="-1"]):focus-visible': {
              outline: '3px solid currentColor',
              outlineOffset: 2,
            },
          }}
        />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}

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
            <ThemedRoot services={services}>{children}</ThemedRoot>
          </QueryClientProvider>
        </I18nextProvider>
      </BrandContext>
    </ServicesContext>
  );
}
