import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser';
import { makeUser } from '../../test/factories';
import { renderScreen } from '../../test/render-screen';
import DashboardPage from '../../features/dashboard/dashboard-page';
import DevicesPage from '../../features/devices/devices-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/devices': DevicesPage };

describe('main layout and dashboard', () => {
  afterEach(() => vi.restoreAllMocks());

  it('greets the user and shows the account status and profile type', async () => {
    await renderScreen(DashboardPage, {
      also: NEXT_SCREENS,
      path: '/',
      user: makeUser({ profile: 'professional' }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(screen.getByTestId('greeting').textContent).toBe('Bonjour \u2068Marie Dupont\u2069');
    expect(screen.getByTestId('account-status').textContent).toBe('Actif');
    expect(screen.getByTestId('profile-type').textContent).toBe('Professionnel de santé');
  });

  it('greets by e-mail when the name is unknown', async () => {
    await renderScreen(DashboardPage, {
      also: NEXT_SCREENS,
      path: '/',
      user: makeUser({ firstName: null, lastName: null }),
    });
    expect((await screen.findByTestId('greeting')).textContent).toContain(
      'marie.dupont@example.fr',
    );
  });

  it('offers the main areas, and the configuration to admins only', async () => {
    await renderScreen(DashboardPage, { also: NEXT_SCREENS, path: '/', user: makeUser() });
    const nav = await screen.findByRole('navigation', { name: 'Navigation principale' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual([
      'Tableau de bord',
      'Mes services',
      'Mon profil',
      'Mes appareils',
      'Sécurité',
    ]);
    expect(
      within(nav).getByRole('link', { name: 'Tableau de bord' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(screen.queryByRole('link', { name: 'Configuration de l’application' })).toBeNull();
  });

  it('shows the configuration link to admins', async () => {
    await renderScreen(DashboardPage, {
      also: NEXT_SCREENS,
      path: '/',
      user: makeUser({ roles: ['admin'] }),
    });
    const nav = await screen.findByRole('navigation', { name: 'Navigation principale' });
    expect(within(nav).getByRole('link', { name: 'Configuration de l’application' })).toBeTruthy();
  });

  it('starts with a skip link to the main content', async () => {
    await renderScreen(DashboardPage, { also: NEXT_SCREENS, path: '/', user: makeUser() });
    await screen.findByRole('heading', { level: 1 });
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Aller au contenu principal' });
    expect(document.activeElement).toBe(skip);
    expect(skip.getAttribute('href')).toBe('#main-content');
    expect(document.getElementById('main-content')?.tagName).toBe('MAIN');
  });

  it('navigates with the keyboard and moves focus to the new page', async () => {
    const { router } = await renderScreen(DashboardPage, {
      also: NEXT_SCREENS,
      path: '/',
      user: makeUser(),
    });
    const nav = await screen.findByRole('navigation', { name: 'Navigation principale' });
    within(nav).getByRole('link', { name: 'Mes appareils' }).focus();
    const user = userEvent.setup();
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Mes appareils' });
    expect(router.state.location.pathname).toBe('/devices');
    await waitFor(() => expect(document.activeElement?.id).toBe('main-content'));
    expect(document.title).toBe('Mes appareils · Hygie');
  });

  it('switches to Arabic: right to left, remembered, mirrored theme', async () => {
    await renderScreen(DashboardPage, { also: NEXT_SCREENS, path: '/', user: makeUser() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Langue\s:\sFrançais$/ }));
    await user.click(screen.getByRole('menuitem', { name: 'العربية' }));
    await screen.findByRole('heading', { level: 1, name: 'لوحة التحكم' });
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(localStorage.getItem('lang')).toBe('ar');
    const rtlStyles = [...document.querySelectorAll('style[data-emotion^="muirtl"]')]
      .map((style) => style.textContent)
      .join('');
    // MUI's styles come out mirrored (the account button's icon margin); the plain elements
    // (app/base.css) use logical sides.
    expect(rtlStyles).toMatch(/margin-right:-4px/);
    expect(screen.getByTestId('language-switcher').getAttribute('aria-label')).toBe(
      'اللغة: العربية',
    );
    expect(document.title).toBe('لوحة التحكم · Hygie');
  });

  it('signs out with a browser navigation to /api/logout', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderScreen(DashboardPage, { also: NEXT_SCREENS, path: '/', user: makeUser() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Compte\u00a0: Marie Dupont' }));
    await user.click(screen.getByRole('menuitem', { name: 'Se déconnecter' }));
    expect(assign).toHaveBeenCalledWith('/api/logout');
  });

  it('shows the brand logo with the brand name as alternative text', async () => {
    await renderScreen(DashboardPage, {
      also: NEXT_SCREENS,
      path: '/',
      user: makeUser(),
      brand: 'telecare',
    });
    const logo = await screen.findByRole('img', { name: 'Hygie Télésoin' });
    expect(logo.getAttribute('src')).toBe('/brands/telecare.svg');
    expect(screen.getByTestId('app-root').getAttribute('data-brand')).toBe('telecare');
  });
});
