// Operator commands (`npm run cli -w @hygie/server -- <command>`); later flows add theirs here.
import { loadConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  const config = loadConfig();
  if (command === 'migrate') {
    const database = openDatabase(config.database);
    try {
      const applied = await migrateToLatest(database);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'up to date\n');
    } finally {
      await database.close();
    }
    return;
  }
  process.stderr.write('usage: cli migrate\n');
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
