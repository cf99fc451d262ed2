import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import { browser } from '../lib/browser';
import { createI18n } from './i18n';
import { RouteError } from './route-error';
import { lazyComponent } from './routes';

async function navigateToBrokenPage() {
  const i18n = await createI18n('fr');
  const router = createMemoryRouter(
    [
      {
        path: '/',
        errorElement: <RouteError />,
        hydrateFallbackElement: <p>loading</p>,
        children: [
          { index: true, element: <p>home</p> },
          {
            path: 'broken',
            lazy: lazyComponent(() =>
              Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
            ),
          },
        ],
      },
    ],
    { initialEntries: ['/broken'] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return router;
}

describe('failed chunk load', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reloads the target page once, then shows the error screen', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await navigateToBrokenPage();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(assign).toHaveBeenCalledWith(window.location.href);

    // After the reload the same chunk fails again: no loop, an explanation instead.
    await navigateToBrokenPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Une erreur est survenue' }),
    ).toBeTruthy();
    expect(assign).toHaveBeenCalledTimes(1);
  });
});
