import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Brand, Language } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { makeUser } from '../../test/factories';
import { renderScreen } from '../../test/render-screen';
import DashboardPage from '../../features/dashboard/dashboard-page';
import DevicesPage from '../../features/devices/devices-page';

const NEXT_SCREENS = { '/devices': DevicesPage };

/** A narrow screen (a phone, 320 px): every `max-width` media query of the theme matches. */
function narrowScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('max-width'),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

const MENU = { fr: 'Menu', ar: 'القائمة' };
const NAV = { fr: 'Navigation principale', ar: 'التنقل الرئيسي' };

describe('the main menu on a narrow screen', () => {
  beforeEach(narrowScreen);
  afterEach(() => vi.unstubAllGlobals());

  it('folds the navigation, language and account into a disclosure button', async () => {
    await renderScreen(DashboardPage, { also: NEXT_SCREENS, path: '/', user: makeUser() });
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    const button = await screen.findByRole('button', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(panel).toBeTruthy();
    expect(panel?.hidden).toBe(true);
    // Closed, none of it is offered.
    expect(screen.queryByRole('navigation', { name: 'Navigation principale' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Langue/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(panel?.hidden).toBe(false);
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Tableau de bord', 'Mes services', 'Mon profil', 'Mes appareils', 'Sécurité']);
    expect(screen.getByRole('button', { name: /^Langue/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Compte\u00a0: Marie Dupont' })).toBeTruthy();
  });

  it('works with the keyboard: opens, follows a link (and closes), Escape gives focus back', async () => {
    const { router } = await renderScreen(DashboardPage, {
      also: NEXT_SCREENS,
      path: '/',
      user: makeUser(),
    });
    const button = await screen.findByRole('button', { name: 'Menu' });
    const user = userEvent.setup();
    button.focus();
    await user.keyboard('{Enter}');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Tableau de bord');
    await user.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    await user.keyboard(' ');
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    within(nav).getByRole('link', { name: 'Mes appareils' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Mes appareils' });
    expect(router.state.location.pathname).toBe('/devices');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(document.activeElement?.id).toBe('main-content'));
  });

  it.each([
    ['fr', 'hygie'],
    ['fr', 'telecare'],
    ['ar', 'hygie'],
    ['ar', 'telecare'],
  ] satisfies [Language & ('fr' | 'ar'), Brand][])(
    'is translated and axe-clean, closed and open, in %s with the %s brand',
    async (language, brand) => {
      await renderScreen(DashboardPage, { path: '/', user: makeUser(), language, brand });
      const button = await screen.findByRole('button', { name: MENU[language] });
      await expectNoAxeViolations();
      await userEvent.setup().click(button);
      expect(screen.getByRole('navigation', { name: NAV[language] })).toBeTruthy();
      await expectNoAxeViolations();
    },
  );
});

describe('the main menu on a wide screen', () => {
  it('shows the navigation as a row, without a menu button', async () => {
    await renderScreen(DashboardPage, { path: '/', user: makeUser() });
    await screen.findByRole('navigation', { name: 'Navigation principale' });
    expect(screen.queryByRole('button', { name: 'Menu' })).toBeNull();
    expect(screen.getByTestId('language-switcher')).toBeTruthy();
  });
});
