import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../../test/a11y';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AppSettingsPage from './app-settings-page';

const admin = makeUser({ roles: ['admin'] });
const hashes = (c: string) => ({
  fr: `${c}1`.repeat(32),
  en: `${c}2`.repeat(32),
  ar: `${c}3`.repeat(32),
});

/** A version waiting for its date, and the one in force until then. */
const VERSIONS = {
  versions: [
    {
      version: '2099-06',
      effectiveDate: '2099-06-01',
      publishedAt: '2026-11-20T09:30:00.000Z',
      publishedBy: { id: 'u-1', email: 'admin@hygie.example' },
      hashes: hashes('a'),
      inForce: false,
      scheduled: true,
    },
    {
      version: '2026-11',
      effectiveDate: '2026-11-02',
      publishedAt: '2026-11-02T09:30:00.000Z',
      publishedBy: null,
      hashes: hashes('b'),
      inForce: true,
      scheduled: false,
    },
  ],
};

const IN_FORCE = {
  version: '2026-11',
  effectiveDate: '2026-11-02',
  texts: {
    fr: [{ title: 'Objet', body: 'Le portail…' }],
    en: [{ title: 'Purpose', body: 'The portal…' }],
    ar: [{ title: 'الغرض', body: 'البوابة…' }],
  },
};

function open(handlers: Record<string, FakeHandler> = {}, language: 'fr' | 'en' | 'ar' = 'fr') {
  return renderScreen(AppSettingsPage, {
    path: '/app-settings?tab=terms',
    user: admin,
    language,
    handlers: {
      'GET /api/admin/cgu': () => json(200, VERSIONS),
      'GET /api/admin/cgu/2026-11': () => json(200, IN_FORCE),
      ...handlers,
    },
  });
}

const input = (id: string) => elementById(id, HTMLElement);

describe('terms tab: a version published for a later date', () => {
  it('shows the scheduled version with the day it comes into force, apart from the one in force', async () => {
    await open();
    const rows = await screen.findAllByTestId('terms-row');
    const [scheduled, inForce] = rows;
    expect(within(scheduled!).getByTestId('terms-scheduled').textContent).toBe(
      'En vigueur le 1 juin 2099',
    );
    expect(within(scheduled!).queryByTestId('terms-in-force')).toBeNull();
    expect(within(inForce!).getByTestId('terms-in-force').textContent).toBe('En vigueur');
    expect(within(inForce!).queryByTestId('terms-scheduled')).toBeNull();
  });

  it('accepts a date to come, says the version is scheduled and which one it replaces', async () => {
    const bodies: unknown[] = [];
    await open({
      'POST /api/admin/cgu': (request) => {
        bodies.push(request.body);
        return json(201, {
          version: '2099-07',
          publishedAt: '2099-01-01',
          scheduled: true,
          hashes: hashes('c'),
        });
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(input('terms-fr-0-title')).toHaveProperty('value', 'Objet'));
    const date = elementById('terms-effective-date', HTMLInputElement);
    // Only dates before the version in force's are refused by the field itself.
    expect([date.min, date.max]).toEqual(['2026-11-02', '']);
    await user.type(input('terms-version'), '2099-07');
    await user.clear(date);
    await user.type(date, '2099-01-01');
    await user.click(screen.getByTestId('terms-submit'));
    expect(date.getAttribute('aria-invalid')).toBe('false');
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain(
      'Elle entrera en vigueur le 1 janvier 2099 ; d’ici là, la version actuelle reste en vigueur.',
    );
    expect(dialog.textContent).toContain(
      // The version id is isolated (bidirectional text).
      'Elle remplace la version \u20682099-06\u2069 prévue pour le 1 juin 2099, qui n’entrera pas en vigueur.',
    );
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await screen.findByTestId('terms-published')).textContent).toContain(
      'est publiée : elle entrera en vigueur le 1 janvier 2099.',
    );
    expect(bodies).toMatchObject([{ version: '2099-07', publishedAt: '2099-01-01' }]);
  });

  it('says it in English, with no axe violations', async () => {
    await open({}, 'en');
    expect((await screen.findByTestId('terms-scheduled')).textContent).toBe(
      'In force on June 1, 2099',
    );
    await expectNoAxeViolations();
  });

  it('in Arabic: the scheduled state is translated, right to left, with no axe violations', async () => {
    await open({}, 'ar');
    const chip = await screen.findByTestId('terms-scheduled');
    expect(document.documentElement.getAttribute('dir')).toBe('rtl');
    expect(chip.textContent).toMatch(/^يسري في /);
    await expectNoAxeViolations();
  });
});
