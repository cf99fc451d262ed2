import { StrictMode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { BRAND_COLORS, BRANDS, NOTIFICATION_TIMEOUT_MS } from '@hygie/domain';
import { resetNativeLoadingScreen } from '../lib/native-bridge';
import { currentLanguage } from '../lib/language';
import { PUBLIC_CONFIG } from '../test/factories';
import { apiError, fakeFetch, json } from '../test/fake-api';
import { brandStyle } from '../lib/brand';
import { App } from './app';
import { createI18n } from './i18n';
import { routes } from './routes';
import { createAppServices } from './services';

const NEWER_APP_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0 Mobile Safari/537.36 HygieApp/3.2 biometry/2.0';
const BROWSER_UA = navigator.userAgent;

function setUserAgent(value: string) {
  Object.defineProperty(window.navigator, 'userAgent', { value, configurable: true });
}

async function mountApp() {
  const api = fakeFetch({
    'GET /api/config': () => json(200, PUBLIC_CONFIG),
    'GET /api/me': () => apiError(401, 'not_logged_in'),
  });
  const i18n = await createI18n('fr');
  const services = createAppServices({
    brand: 'hygie',
    getLanguage: () => currentLanguage(i18n.language),
    fetch: api.fetch,
  });
  const router = createMemoryRouter(routes, { initialEntries: ['/security/login'] });
  const view = render(
    <StrictMode>
      <App services={services} i18n={i18n}>
        <RouterProvider router={router} />
      </App>
    </StrictMode>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Connexion' });
  return { ...view, services };
}

describe('application root', () => {
  afterEach(() => {
    setUserAgent(BROWSER_UA);
    delete window.HygieNativeBridge;
    resetNativeLoadingScreen();
    vi.useRealTimers();
  });

  it('asks the newer native app to hide its loading screen once, with "" and no callback', async () => {
    setUserAgent(NEWER_APP_UA);
    const call = vi.fn();
    window.HygieNativeBridge = { call };
    const { rerender, services } = await mountApp();
    rerender(<div />);
    expect(services).toBeTruthy();
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]).toEqual(['hideLoadingScreen', '']);
    expect(call.mock.calls[0]).toHaveLength(2);
  });

  it('never calls the bridge in a plain browser', async () => {
    const call = vi.fn();
    window.HygieNativeBridge = { call };
    await mountApp();
    expect(call).not.toHaveBeenCalled();
  });

  it('shows notifications and hides them after NOTIFICATION_TIMEOUT_MS', async () => {
    const { services } = await mountApp();
    // The snackbar's chunk (loaded with the first notification) as a browser that has it cached.
    await import('./notification-layer');
    vi.useFakeTimers();
    await act(async () => {
      services.notifications.notify('Modifié avec succès', 'success');
      await import('./notification-layer');
    });
    expect(screen.getByText('Modifié avec succès')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(NOTIFICATION_TIMEOUT_MS - 100);
    });
    expect(screen.queryByText('Modifié avec succès')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(services.notifications.store.get()).toEqual([]);
  });

  it.each(BRANDS)('takes the %s brand colours from BRAND_COLORS, as the MUI theme', (brand) => {
    expect(brandStyle(brand)).toEqual({
      '--hy-primary': BRAND_COLORS[brand].primary,
      '--hy-secondary': BRAND_COLORS[brand].secondary,
    });
  });
});
