import { migrateToLatest } from '../../db/migrate.js';
import { defineCommand } from '../command.js';

export const migrate = defineCommand({
  name: 'migrate',
  summary: 'applies the pending database migrations (the server also applies them at start)',
  usage: '',
  description:
    'Applies the pending database migrations, forward only, under a lock (several nodes may run\nit together). The server also applies them at start.',
  options: {},
  help: {},
  run: async (_values, env) => {
    const applied = await migrateToLatest(env.database());
    return {
      data: { applied },
      text: applied.length ? `applied: ${applied.join(', ')}` : 'up to date',
    };
  },
});
