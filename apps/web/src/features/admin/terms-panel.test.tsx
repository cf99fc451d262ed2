import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../../test/a11y';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AppSettingsPage from './app-settings-page';

const admin = makeUser({ roles: ['admin'] });
const hashes = (c: string) => ({
  fr: `${c}1`.repeat(32),
  en: `${c}2`.repeat(32),
  ar: `${c}3`.repeat(32),
});

const VERSIONS = {
  versions: [
    {
      version: '2026-11',
      effectiveDate: '2026-11-02',
      publishedAt: '2026-11-02T09:30:00.000Z',
      publishedBy: { id: 'u-1', email: 'admin@hygie.example' },
      hashes: hashes('a'),
      inForce: true,
      scheduled: false,
    },
    {
      version: '2026-01',
      effectiveDate: '2026-01-01',
      publishedAt: '2026-01-01T00:00:00.000Z',
      publishedBy: null,
      hashes: hashes('b'),
      inForce: false,
      scheduled: false,
    },
  ],
};

const IN_FORCE = {
  version: '2026-11',
  effectiveDate: '2026-11-02',
  texts: {
    fr: [
      { title: 'Objet', body: 'Le portail…' },
      { title: 'Votre compte', body: 'Personnel.' },
    ],
    en: [{ title: 'Purpose', body: 'The portal…' }],
    ar: [{ title: 'الغرض', body: 'البوابة…' }],
  },
};

function open(
  handlers: Record<string, FakeHandler> = {},
  language: 'fr' | 'ar' = 'fr',
  brand: 'hygie' | 'telecare' = 'hygie',
) {
  return renderScreen(AppSettingsPage, {
    path: '/app-settings?tab=terms',
    user: admin,
    language,
    brand,
    handlers: {
      'GET /api/admin/cgu': () => json(200, VERSIONS),
      'GET /api/admin/cgu/2026-11': () => json(200, IN_FORCE),
      ...handlers,
    },
  });
}

const input = (id: string) => elementById(id, HTMLElement);
const value = (id: string) => elementById(id, HTMLInputElement);

describe('terms tab', () => {
  it('lists the published versions: date, who, each language’s hash, the one in force', async () => {
    await open();
    const rows = await screen.findAllByTestId('terms-row');
    expect(rows.map((row) => row.getAttribute('data-version'))).toEqual(['2026-11', '2026-01']);
    const [latest, first] = rows;
    expect(within(latest!).getByText('2 novembre 2026')).toBeTruthy();
    expect(latest!.textContent).toContain('admin@hygie.example');
    expect(within(latest!).getByTestId('terms-hash-ar').textContent).toBe('a3a3a3a3');
    expect(within(latest!).getByTestId('terms-hash-ar').getAttribute('title')).toBe(hashes('a').ar);
    expect(within(latest!).getByTestId('terms-in-force').textContent).toBe('En vigueur');
    expect(first!.textContent).toContain('par la ligne de commande');
    expect(within(first!).queryByTestId('terms-in-force')).toBeNull();
  });

  it('edits the text in force, previews it, confirms, and publishes it', async () => {
    const bodies: unknown[] = [];
    await open({
      'POST /api/admin/cgu': (request) => {
        bodies.push(request.body);
        return json(201, {
          version: '2027-01',
          publishedAt: '2026-11-05',
          scheduled: false,
          hashes: hashes('c'),
        });
      },
    });
    const user = userEvent.setup();
    // The texts are pasted, not typed: a key re-renders the whole three-language editor, and
    // sixty of them made this test the slowest of the suite (what is sent is checked below).
    const paste = async (id: string, text: string) => {
      await user.click(input(id));
      await user.paste(text);
    };
    // Prefilled from the version in force.
    await waitFor(() => expect(value('terms-fr-0-title')).toHaveProperty('value', 'Objet'));
    await paste('terms-version', '2027-01');
    const date = elementById('terms-effective-date', HTMLInputElement);
    await user.clear(date);
    await user.type(date, '2026-11-05');
    await user.clear(input('terms-fr-0-title'));
    await paste('terms-fr-0-title', 'Objet du portail');
    // Move the second section up, then add a third one.
    await user.click(screen.getByRole('button', { name: 'Monter la section 2' }));
    await user.click(screen.getByTestId('terms-section-add'));
    await paste('terms-fr-2-title', 'Contact');
    await paste('terms-fr-2-body', 'Écrivez au support.');
    // In Arabic: a section added then removed leaves the text as it was.
    await user.click(screen.getByTestId('terms-tab-ar'));
    await user.click(screen.getByTestId('terms-section-add'));
    expect(screen.getAllByTestId('terms-section')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Supprimer la section 2' }));
    expect(screen.getAllByTestId('terms-section')).toHaveLength(1);
    await user.click(screen.getByTestId('terms-tab-fr'));
    await user.click(screen.getByTestId('terms-preview-toggle'));
    const preview = screen.getByTestId('terms-preview');
    expect(
      within(preview)
        .getAllByRole('heading', { level: 5 })
        .map((h) => h.textContent),
    ).toEqual(['1. Votre compte', '2. Objet du portail', '3. Contact']);

    await user.click(screen.getByTestId('terms-submit'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain(
      'Chaque utilisateur devra l’accepter à nouveau à sa prochaine connexion.',
    );
    expect(dialog.textContent).toContain('5 novembre 2026');
    expect(bodies).toEqual([]);
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await screen.findByTestId('terms-published')).textContent).toContain(
      'est publiée et en vigueur',
    );
    expect(bodies).toEqual([
      {
        version: '2027-01',
        publishedAt: '2026-11-05',
        texts: {
          fr: [
            { title: 'Votre compte', body: 'Personnel.' },
            { title: 'Objet du portail', body: 'Le portail…' },
            { title: 'Contact', body: 'Écrivez au support.' },
          ],
          en: IN_FORCE.texts.en,
          ar: IN_FORCE.texts.ar,
        },
      },
    ]);
  });

  it('shows the server’s refusal translated, and empty fields before asking it', async () => {
    let posts = 0;
    await open({
      'POST /api/admin/cgu': () => {
        posts += 1;
        return apiError(409, 'terms_version_exists');
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(value('terms-fr-0-title')).toHaveProperty('value', 'Objet'));
    // No version, an empty English title: nothing is sent, the fields say why.
    await user.click(screen.getByTestId('terms-tab-en'));
    await user.clear(input('terms-en-0-title'));
    await user.click(screen.getByTestId('terms-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toContain(
      'chaque section doit avoir un titre et un texte',
    );
    expect(input('terms-version').getAttribute('aria-invalid')).toBe('true');
    expect(input('terms-en-0-title').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(posts).toBe(0);
    // Nor a date before the version in force's.
    const date = elementById('terms-effective-date', HTMLInputElement);
    await user.clear(date);
    await user.type(date, '2026-10-01');
    await user.click(screen.getByTestId('terms-submit'));
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(
      screen.getByText(
        'Saisissez une date valide, au plus tôt le 2 novembre 2026 (date d’effet de la version en vigueur).',
      ),
    ).toBeTruthy();
    expect(posts).toBe(0);
    await user.clear(date);
    await user.type(date, '2026-11-15');

    await user.type(input('terms-en-0-title'), 'Purpose');
    await user.type(input('terms-version'), '2026-11');
    await user.click(screen.getByTestId('terms-submit'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Cette version des conditions existe déjà : une version publiée ne change plus, publiez-en une nouvelle.',
    );
    expect(posts).toBe(1);
  });

  it('is usable by keyboard alone and has no axe violations', async () => {
    await open();
    await waitFor(() => expect(value('terms-fr-0-title')).toHaveProperty('value', 'Objet'));
    await expectNoAxeViolations();
    const user = userEvent.setup();
    input('terms-version').focus();
    await user.keyboard('2027-02');
    // The language tabs move with the arrow keys, like the page's tabs.
    screen.getByTestId('terms-tab-fr').focus();
    await user.keyboard('{ArrowRight}{Enter}');
    expect(screen.getByTestId('terms-tab-en').getAttribute('aria-selected')).toBe('true');
    expect(input('terms-en-0-title')).toBeTruthy();
  });

  it('in Arabic and the TeleCare brand: right to left, each text in its own direction and language', async () => {
    await open({}, 'ar', 'telecare');
    await waitFor(() => expect(value('terms-fr-0-title')).toHaveProperty('value', 'Objet'));
    expect(document.documentElement.getAttribute('dir')).toBe('rtl');
    expect(screen.getByTestId('terms-tab').textContent).toBe('شروط الاستخدام');
    expect(input('terms-fr-0-title').getAttribute('dir')).toBe('ltr');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('terms-tab-ar'));
    const title = input('terms-ar-0-title');
    expect([title.getAttribute('dir'), title.getAttribute('lang')]).toEqual(['rtl', 'ar']);
    expect(input('terms-ar-0-body').getAttribute('dir')).toBe('rtl');
    await expectNoAxeViolations();
  });
});
