// Operator commands: `npm run cli -w @hygie/server -- <command> [options]` (root shortcuts in
// README); `cli --help` lists them. The commands live in ./cli/commands, listed in ./cli/registry.ts.
import { runCli } from './cli/runner.js';

// Through npm (`npm run user:invite` at the root) the command runs in the server's workspace; a
// relative DATA_DIR (the default ./data) is read from where npm was started, as the server started
// by `npm start` reads it, so both use the same database.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
