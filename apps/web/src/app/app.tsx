import { useEffect } from 'react';
import Box from '@mui/material/Box';
import type { i18n as I18n } from 'i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { BRAND_COLORS } from '@hygie/domain';
import { NotificationHost } from '../components/notification-host';
import { useBrand } from '../lib/brand';
import { usePublicConfig } from '../lib/config';
import { initErrorReporting } from '../lib/error-reporting';
import { hideNativeLoadingScreen } from '../lib/native-bridge';
import type { AppServices } from '../lib/services';
import { AppProviders } from './providers';

type Router = ReturnType<typeof createBrowserRouter>;

function AppRoot({ router, services }: { router: Router; services: AppServices }) {
  const { brand } = useBrand();
  const config = usePublicConfig();

  // The root view is mounted: the newer native app may hide its loading screen (spec §1).
  useEffect(() => {
    hideNativeLoadingScreen();
  }, []);

  useEffect(() => {
    document
      .querySelector('meta[name="theme-color"]')
      ?.setAttribute('content', BRAND_COLORS[brand].primary);
  }, [brand]);

  useEffect(() => {
    if (config) initErrorReporting(config).catch((error: unknown) => console.warn(error));
  }, [config]);

  return (
    <Box data-brand={brand} data-testid="app-root">
      <RouterProvider router={router} />
      <NotificationHost notifications={services.notifications} />
    </Box>
  );
}

export function App({
  services,
  i18n,
  router,
}: {
  services: AppServices;
  i18n: I18n;
  router: Router;
}) {
  return (
    <AppProviders services={services} i18n={i18n}>
      <AppRoot router={router} services={services} />
    </AppProviders>
  );
}
