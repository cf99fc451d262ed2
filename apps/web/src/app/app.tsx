import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import type { i18n as I18n } from 'i18next';
import { BRAND_COLORS } from '@hygie/domain';
import { brandStyle, useBrand } from '../lib/brand';
import { usePublicConfig } from '../lib/config';
import { initErrorReporting } from '../lib/error-reporting';
import { hideNativeLoadingScreen } from '../lib/native-bridge';
import type { Notifications } from '../lib/notifications';
import type { AppServices } from '../lib/services';
import { useStore } from '../lib/store';
import { AppProviders } from './providers';

const NotificationLayer = lazy(() => import('./notification-layer'));

/** The snackbar and its MUI load with the first notification, not with the first screen. */
function NotificationGate({ notifications }: { notifications: Notifications }) {
  const queue = useStore(notifications.store);
  if (queue.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <NotificationLayer notifications={notifications} />
    </Suspense>
  );
}

function AppRoot({ children, services }: { children: ReactNode; services: AppServices }) {
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
    <div className="hy-root" style={brandStyle(brand)} data-brand={brand} data-testid="app-root">
      {children}
      <NotificationGate notifications={services.notifications} />
    </div>
  );
}

/**
 * The whole client around its router: `<RouterProvider>` in the browser and the tests,
 * `<StaticRouterProvider>` on the server (server-render.tsx).
 */
export function App({
  services,
  i18n,
  children,
}: {
  services: AppServices;
  i18n: I18n;
  children: ReactNode;
}) {
  return (
    <AppProviders services={services} i18n={i18n}>
      <AppRoot services={services}>{children}</AppRoot>
    </AppProviders>
  );
}
