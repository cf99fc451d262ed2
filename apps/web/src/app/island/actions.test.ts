import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG } from '../../test/server-page';
import { PAGE_STATE_ID, serialisePageState } from '../page-state';
import { startErrorReporting } from './actions';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the island’s error reporting', () => {
  it('starts with the configuration of the page the server drew', async () => {
    const config = { ...CONFIG, sentryDsn: 'https://key@errors.example.org/1' };
    document.body.innerHTML = `<script type="application/json" id="${PAGE_STATE_ID}">${serialisePageState({ language: 'fr', brand: 'hygie', config })}</script>`;
    const start = vi.fn(() => Promise.resolve(true));

    await expect(startErrorReporting(start)).resolves.toBe(true);

    expect(start).toHaveBeenCalledWith(config);
  });

  it('does not start without the page’s state', async () => {
    const start = vi.fn(() => Promise.resolve(true));
    await expect(startErrorReporting(start)).resolves.toBe(false);
    expect(start).not.toHaveBeenCalled();
  });
});
