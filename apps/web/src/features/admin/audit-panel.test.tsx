import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminAuditEvent } from '@hygie/domain';
import { auditQuerySchema } from '@hygie/domain';
import { makeUser } from '../../test/factories';
import { json, type FakeRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AppSettingsPage from './app-settings-page';

const admin = makeUser({ roles: ['admin'] });

function event(id: string, over: Partial<AdminAuditEvent> = {}): AdminAuditEvent {
  return {
    id,
    at: '2026-03-01T13:05:00.000Z',
    action: 'login_failed',
    actorId: null,
    targetId: 'u-2',
    ip: '203.0.113.9',
    userAgent: 'curl/8',
    requestId: `req-${id}`,
    details: null,
    ...over,
  };
}

const queryOf = (request: FakeRequest) =>
  auditQuerySchema.parse(Object.fromEntries(request.url.searchParams));

describe('audit tab', () => {
  it('opens on one user’s events from the link of the user page, filters, pages, and exports', async () => {
    const queries: ReturnType<typeof queryOf>[] = [];
    await renderScreen(AppSettingsPage, {
      path: '/app-settings?tab=audit&user=u-2',
      user: admin,
      handlers: {
        'GET /api/admin/audit': (request) => {
          const query = queryOf(request);
          queries.push(query);
          return query.cursor
            ? json(200, { items: [event('e-3', { action: 'login' })], nextCursor: null })
            : json(200, { items: [event('e-1'), event('e-2')], nextCursor: '1772370300000.e-2' });
        },
      },
    });
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(queries[0]).toEqual({ user: 'u-2', limit: 50 });
    expect(rows[0]?.textContent).toContain('Échec de connexion');
    expect(rows[0]?.textContent).toContain('203.0.113.9');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('audit-more'));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(3));

    await user.selectOptions(screen.getByLabelText('Événement'), 'login_failed');
    await user.type(screen.getByLabelText('Du'), '2026-03-01');
    await waitFor(() =>
      expect(queries.at(-1)).toEqual({
        user: 'u-2',
        type: 'login_failed',
        from: '2026-03-01',
        limit: 50,
      }),
    );
    const href = screen.getByTestId('audit-export').getAttribute('href') ?? '';
    const url = new URL(href, 'http://localhost');
    expect(url.pathname).toBe('/api/admin/audit/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      user: 'u-2',
      type: 'login_failed',
      from: '2026-03-01',
      l: 'fr',
    });
  });

  it('says when nothing matches', async () => {
    await renderScreen(AppSettingsPage, {
      path: '/app-settings?tab=audit',
      user: admin,
      handlers: { 'GET /api/admin/audit': () => json(200, { items: [], nextCursor: null }) },
    });
    expect((await screen.findByTestId('no-event')).textContent).toBe('Aucun événement.');
  });
});
