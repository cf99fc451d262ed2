import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { BRAND_NAMES, type CurrentUser } from '@hygie/domain';
import { expectNoAxeViolations, expectPageStructure, type A11yVariant } from './a11y';
import type { FakeHandler } from './fake-api';
import { renderScreen } from './render-screen';
import { SCREEN_COMPONENTS } from './screens';

/** A screen in one state: a plain visit, a sign-in stage, a link, a later step. */
export interface ScreenScenario {
  name: string;
  path: string;
  /** The screen's route when `path` fills in its parameters (`/app-settings/users/:userId`). */
  at?: string;
  user?: CurrentUser | null;
  me?: FakeHandler;
  handlers?: Record<string, FakeHandler>;
  /** Takes the screen to the state to check, once its h1 is shown. */
  act?: (user: UserEvent) => Promise<unknown>;
  /** The state shows no error message (a form error would be a wrong state, not a check). */
  noFormError?: boolean;
}

/**
 * Renders the scenario's screen in a language and brand and checks what every screen must be:
 * still at its address, branded, in the document's language and direction, one h1 in a <main>,
 * the page title, and (once per language) no axe violation.
 */
export async function expectWellFormedScreen(
  scenario: ScreenScenario,
  { language, brand, axe }: A11yVariant,
): Promise<void> {
  const pathname = new URL(scenario.path, 'http://localhost').pathname;
  const Screen = SCREEN_COMPONENTS[scenario.at ?? pathname];
  if (!Screen) throw new Error(`no screen component for ${pathname}`);
  const { router } = await renderScreen(Screen, {
    path: scenario.path,
    ...(scenario.at && { at: scenario.at }),
    language,
    brand,
    user: scenario.user ?? null,
    ...(scenario.me && { me: scenario.me }),
    ...(scenario.handlers && { handlers: scenario.handlers }),
  });
  await waitFor(() => expect(document.querySelector('main h1')).toBeTruthy());
  await scenario.act?.(userEvent.setup());
  expect(router.state.location.pathname).toBe(pathname);
  expect(document.querySelector('[data-brand]')?.getAttribute('data-brand')).toBe(brand);
  expect(document.documentElement.lang).toBe(language);
  expect(document.documentElement.dir).toBe(language === 'ar' ? 'rtl' : 'ltr');
  if (scenario.noFormError) expect(screen.queryByTestId('form-error')).toBeNull();
  expectPageStructure(BRAND_NAMES[brand]);
  if (axe) await expectNoAxeViolations();
}
