import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminMessage } from '@hygie/domain';
import { messageQuerySchema } from '@hygie/domain';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler, type FakeRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AppSettingsPage from './app-settings-page';

const admin = makeUser({ roles: ['admin'] });

function message(id: string, over: Partial<AdminMessage> = {}): AdminMessage {
  return {
    id,
    channel: 'email',
    recipient: 'j***@example.fr',
    template: 'password_changed',
    status: 'failed',
    attempts: 8,
    lastError: '421 4.7.0 Try again later',
    createdAt: '2026-03-01T13:05:00.000Z',
    sentAt: null,
    nextAttemptAt: null,
    expiresAt: null,
    retryable: true,
    ...over,
  };
}

function open(handlers: Record<string, FakeHandler>, language: 'fr' | 'ar' = 'fr') {
  return renderScreen(AppSettingsPage, {
    path: '/app-settings?tab=messages',
    user: admin,
    language,
    handlers,
  });
}

const queryOf = (request: FakeRequest) =>
  messageQuerySchema.parse(Object.fromEntries(request.url.searchParams));

describe('messages tab', () => {
  it('shows the failed messages first, with their attempts and last error, and sends one again', async () => {
    const queries: unknown[] = [];
    const retried: string[] = [];
    await open({
      'GET /api/admin/messages': (request) => {
        queries.push(queryOf(request));
        return json(200, {
          items: [
            message('m-1'),
            message('m-2', { template: 'mfa_code', channel: 'sms', retryable: false }),
          ],
          nextCursor: null,
        });
      },
      'POST /api/admin/messages/m-1/retry': () => {
        retried.push('m-1');
        return json(200, message('m-1', { status: 'pending', retryable: false }));
      },
    });
    const rows = await screen.findAllByTestId('message-row');
    expect(rows).toHaveLength(2);
    expect(queries[0]).toEqual({ status: 'failed', limit: 50 });
    expect(rows[0]?.textContent).toContain('Mot de passe modifié');
    expect(rows[0]?.textContent).toContain('421 4.7.0 Try again later');
    expect(rows[0]?.textContent).toContain('1 mars 2026');
    // A message that carried a code cannot go again: the person asks for a new one.
    expect(rows[1]?.textContent).toContain('Code de connexion');
    expect(screen.getAllByTestId('message-retry')).toHaveLength(1);
    expect(screen.getByTestId('message-not-retryable').textContent).toContain('redemander');
    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', { name: /Renvoyer le message « ?\u2068Mot de passe modifié/ }),
    );
    await waitFor(() => expect(retried).toEqual(['m-1']));
    expect((await screen.findByTestId('notification')).textContent).toContain('de nouveau en file');
  });

  it('filters by state and channel, and pages with the cursor', async () => {
    const queries: ReturnType<typeof queryOf>[] = [];
    await open({
      'GET /api/admin/messages': (request) => {
        const query = queryOf(request);
        queries.push(query);
        if (query.cursor) {
          return json(200, { items: [message('m-3', { status: 'sent' })], nextCursor: null });
        }
        return json(200, {
          items: [message('m-2', { status: query.status ?? 'sent', retryable: false })],
          nextCursor: '1772370300000.m-2',
        });
      },
    });
    await screen.findAllByTestId('message-row');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('État'), '');
    await user.selectOptions(screen.getByLabelText('Canal'), 'sms');
    await waitFor(() => expect(queries.at(-1)).toEqual({ channel: 'sms', limit: 50 }));
    await user.click(await screen.findByTestId('messages-more'));
    await waitFor(() =>
      expect(queries.at(-1)).toEqual({ channel: 'sms', cursor: '1772370300000.m-2', limit: 50 }),
    );
    await waitFor(() => expect(screen.getAllByTestId('message-row')).toHaveLength(2));
    expect(screen.queryByTestId('messages-more')).toBeNull();
  });

  it('says when there is no message', async () => {
    await open({
      'GET /api/admin/messages': () => json(200, { items: [], nextCursor: null }),
    });
    expect((await screen.findByTestId('no-message')).textContent).toBe('Aucun message.');
  });

  it('shows a refused retry in Arabic', async () => {
    await open(
      {
        'GET /api/admin/messages': () => json(200, { items: [message('m-1')], nextCursor: null }),
        'POST /api/admin/messages/m-1/retry': () => apiError(409, 'message_not_retryable'),
      },
      'ar',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('message-retry'));
    const notice = await screen.findByTestId('notification');
    expect(notice.textContent).toContain('لا يمكن');
    expect(notice.textContent).not.toContain('server:');
    expect(document.documentElement.dir).toBe('rtl');
  });
});
