import { createContext } from '../app.js';
import type { Config } from '../config.js';
import { ConfigError, loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import type { DbHandle } from '../db/connection.js';
import { openDatabase } from '../db/connection.js';
import { isAppError } from '../lib/app-error.js';
import type { Command, CommandEnv } from './command.js';
import { UsageError, describeError } from './command.js';
import { COMMANDS } from './registry.js';

/** Where the runner reads its configuration and writes (the process, or a test). */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

const HELP_FLAGS = new Set(['--help', '-h']);
const JSON_FLAG = '--json';

const COMMON_HELP: [string, string][] = [
  ['--json', 'print the result as one JSON document (an error: {"error","code"} on stderr)'],
  ['-h, --help', 'print this help'],
];

const EXIT_CODES =
  'exit codes: 0 done; 1 refused, failed or not usable; 2 bad usage, input or configuration.';

function table(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`);
}

function overview(commands: readonly Command[]): string {
  return [
    'usage: cli <command> [options]',
    '',
    'commands:',
    ...table(commands.map((c) => [c.name, c.summary])),
    '',
    'cli <command> --help describes a command and its options. Every command takes --json: its',
    'result as one JSON document on stdout.',
    EXIT_CODES,
  ].join('\n');
}

function usageOf(command: Command): string {
  return `cli ${command.name}${command.usage ? ` ${command.usage}` : ''}`;
}

/** `cli <command> --help`: its usage, what it does and every option. */
export function commandHelp(command: Command): string {
  const options: [string, string][] = Object.entries(command.help).map(([name, help]) => [
    `--${name}${help.value ? ` ${help.value}` : ''}`,
    help.text,
  ]);
  return [
    `usage: ${usageOf(command)}`,
    '',
    command.description,
    '',
    'options:',
    ...table([...options, ...COMMON_HELP]),
    '',
    EXIT_CODES,
  ].join('\n');
}

/** Node's parseArgs refusals (unknown option, missing value, stray argument). */
function isParseArgsError(err: unknown): err is TypeError & { code: string } {
  return (
    err instanceof TypeError &&
    'code' in err &&
    typeof err.code === 'string' &&
    err.code.startsWith('ERR_PARSE_ARGS')
  );
}

/** The configuration, the database and the context, each made on first use. */
function lazyEnv(io: CliIo): CommandEnv & { close(): Promise<void> } {
  let config: Config | undefined;
  let database: DbHandle | undefined;
  let context: Promise<AppContext> | undefined;
  const env: CommandEnv = {
    config: () => (config ??= loadConfig(io.env)),
    database: () => (database ??= openDatabase(env.config().database)),
    context: () => (context ??= createContext(env.config(), env.database())),
  };
  return { ...env, close: async () => database?.close() };
}

interface Failure {
  exitCode: 1 | 2;
  message: string;
  code: string;
  retryAfter?: number;
}

function failureOf(err: unknown, command: string): Failure {
  const helpHint = `run cli ${command} --help`;
  if (err instanceof UsageError) {
    return { exitCode: 2, message: `${err.message}; ${helpHint}`, code: 'validation_error' };
  }
  if (isParseArgsError(err)) {
    // Node's first sentence names the option ("Unknown option '--mail'"); the rest is advice.
    const first = err.message.split('\n')[0]?.split('. ')[0] ?? err.message;
    return { exitCode: 2, message: `${first}; ${helpHint}`, code: 'usage_error' };
  }
  if (err instanceof ConfigError) {
    // One line per bad variable, as the server prints them.
    return { exitCode: 2, message: err.message, code: 'invalid_configuration' };
  }
  if (isAppError(err)) {
    const wait = Number(err.headers?.['retry-after']);
    const retryAfter = Number.isFinite(wait) && wait > 0 ? wait : undefined;
    return {
      exitCode: 1,
      message: `refused: ${err.code}${retryAfter ? ` (try again in ${retryAfter} s)` : ''}`,
      code: err.code,
      ...(retryAfter ? { retryAfter } : {}),
    };
  }
  return { exitCode: 1, message: describeError(err), code: 'failed' };
}

/**
 * Runs `cli <command> [options]`; returns the exit code. Help needs no configuration; every error
 * is one line on stderr (or one JSON document with --json), never a stack.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands: readonly Command[] = COMMANDS,
): Promise<number> {
  const [name, ...rest] = argv;
  const json = rest.includes(JSON_FLAG);
  const help = rest.some((arg) => HELP_FLAGS.has(arg));
  const find = (wanted: string | undefined) => commands.find((c) => c.name === wanted);

  const fail = ({ exitCode, message, ...details }: Failure): number => {
    io.stderr(json ? `${JSON.stringify({ error: message, ...details })}\n` : `${message}\n`);
    return exitCode;
  };

  if (name === undefined) {
    io.stderr(`${overview(commands)}\n`);
    return 2;
  }
  if (HELP_FLAGS.has(name) || name === 'help') {
    const topic = name === 'help' ? rest.find((arg) => !arg.startsWith('-')) : undefined;
    if (topic === undefined) {
      const listed = commands.map((c) => ({ name: c.name, summary: c.summary, usage: usageOf(c) }));
      io.stdout(json ? `${JSON.stringify({ commands: listed })}\n` : `${overview(commands)}\n`);
      return 0;
    }
    const command = find(topic);
    if (!command) {
      return fail({
        exitCode: 2,
        message: `unknown command: ${topic}; run cli --help`,
        code: 'usage_error',
      });
    }
    io.stdout(`${commandHelp(command)}\n`);
    return 0;
  }
  const command = find(name);
  if (!command) {
    return fail({
      exitCode: 2,
      message: `unknown command: ${name}; run cli --help`,
      code: 'usage_error',
    });
  }
  if (help) {
    io.stdout(`${commandHelp(command)}\n`);
    return 0;
  }

  const env = lazyEnv(io);
  try {
    const args = rest.filter((arg) => arg !== JSON_FLAG);
    const result = await command.run(args, env);
    io.stdout(json ? `${JSON.stringify(result.data)}\n` : `${result.text}\n`);
    return result.exitCode ?? 0;
  } catch (err) {
    return fail(failureOf(err, command.name));
  } finally {
    await env.close().catch(() => undefined);
  }
}
