// Operator commands: `npm run cli -w @hygie/server -- <command> [options]` (root shortcuts in
// README); `cli --help` lists them. The commands live in ./cli/commands, listed in ./cli/registry.ts.
import { runCli } from './cli/runner.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
