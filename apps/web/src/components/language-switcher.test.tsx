import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import LoginPage from '../features/auth/login-page';
import { expectNoAxeViolations } from '../test/a11y';
import { renderScreen } from '../test/render-screen';

async function openLogin() {
  await renderScreen(LoginPage, { path: '/security/login' });
  const button = await screen.findByRole('button', { name: /^Langue\s:\sFrançais$/ });
  return { button, user: userEvent.setup() };
}

describe('language switcher (a menu button without MUI)', () => {
  it('opens on the current language and moves with the arrows, Home and End, wrapping', async () => {
    const { button, user } = await openLogin();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBeNull();
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu', { name: /^Langue\s:\sFrançais$/ });
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    const [fr, en, ar] = ['Français', 'English', 'العربية'].map((name) =>
      screen.getByRole('menuitem', { name }),
    );
    expect(document.activeElement).toBe(fr);
    expect(fr?.getAttribute('aria-current')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(en);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(ar);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(fr);
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(ar);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(fr);
    await expectNoAxeViolations();
  });

  it('closes on Escape or Tab and gives the focus back to the button', async () => {
    const { button, user } = await openLogin();
    await user.click(button);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('closes on a click elsewhere', async () => {
    const { button, user } = await openLogin();
    await user.click(button);
    await user.click(screen.getByRole('heading', { level: 1 }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('switches the language from the keyboard: Arabic, right to left, remembered', async () => {
    const { button, user } = await openLogin();
    button.focus();
    await user.keyboard('{Enter}');
    await user.keyboard('{End}{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'تسجيل الدخول' });
    expect(document.documentElement.dir).toBe('rtl');
    expect(localStorage.getItem('lang')).toBe('ar');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'اللغة: العربية' })),
    );
  });
});
