import { parseArgs } from 'node:util';
import type { ParseArgsOptionsConfig } from 'node:util';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import type { DbHandle } from '../db/connection.js';

/** The option values `parseArgs` returns for the options `O` (strict, no positionals). */
export type OptionValues<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>
>['values'];

/**
 * What a command needs, opened on first use and closed by the runner: help and input errors
 * therefore need no configuration and open no database.
 */
export interface CommandEnv {
  /** The validated configuration (throws ConfigError: one line per bad variable). */
  config(): Config;
  /** The configured database, opened once. */
  database(): DbHandle;
  /** The services' context (applies pending migrations, as the server does at start). */
  context(): Promise<AppContext>;
}

/** What a command answers: `data` is printed as one JSON document with --json, `text` otherwise. */
export interface CommandResult {
  data: unknown;
  text: string;
  /** 1 when the command reports a state that is not usable (config:check); 0 by default. */
  exitCode?: 0 | 1;
}

/** What `--help` shows for one option: its value's placeholder (none for a flag) and a phrase. */
export interface OptionHelp {
  value?: string;
  text: string;
}

export interface CommandSpec<O extends ParseArgsOptionsConfig> {
  /** As typed after `cli` (and named in the root npm script). */
  name: string;
  /** One line, for `cli --help`. */
  summary: string;
  /** The options after the name, e.g. `--email ADDRESS [--admin]` (empty: none). */
  usage: string;
  /** What the command does, a few lines for `cli <name> --help` (the summary when omitted). */
  description?: string;
  options: O;
  /** Every option's line in `--help`. */
  help: { [K in keyof O]: OptionHelp };
  run(values: OptionValues<O>, env: CommandEnv): Promise<CommandResult>;
}

/** A registered command, its options' types erased: what the runner and the help see. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  description: string;
  options: ParseArgsOptionsConfig;
  help: Record<string, OptionHelp>;
  /** Parses the arguments (throws on an unknown or malformed option), then runs. */
  run(args: string[], env: CommandEnv): Promise<CommandResult>;
}

/** Declares a command: its options typed from their parseArgs spec. */
export function defineCommand<const O extends ParseArgsOptionsConfig>(
  spec: CommandSpec<O>,
): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage,
    description: spec.description ?? spec.summary,
    options: spec.options,
    help: spec.help,
    run: (args, env) => {
      const config: { args: string[]; options: O; strict: true; allowPositionals: false } = {
        args,
        options: spec.options,
        strict: true,
        allowPositionals: false,
      };
      return spec.run(parseArgs(config).values, env);
    },
  };
}

/** Bad input: exit code 2, one line, and a pointer to the command's help. */
export class UsageError extends Error {}

/**
 * Parses a command's input through a domain schema (the one the API uses). A refusal names the
 * options at fault, on one line: `--email "x": email_invalid; --last-name is required`.
 * `optionOf` maps the schema's fields to their options.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: Record<string, unknown>,
  optionOf: Record<string, string>,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : '';
    const option = optionOf[field] ? `--${optionOf[field]}` : field || 'input';
    const given = valueAt(input, issue.path);
    if (given === undefined) return `${option} is required`;
    const shown = typeof given === 'string' ? ` ${JSON.stringify(given)}` : '';
    return `${option}${shown}: ${issue.message}`;
  });
  throw new UsageError([...new Set(problems)].join('; '));
}

/** The input's value at an issue's path (an element of a repeated option, say). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (Array.isArray(value) && typeof key === 'number') value = value[key];
    else if (typeof value === 'object' && value !== null && typeof key === 'string') {
      value = Object.entries(value).find(([name]) => name === key)?.[1];
    } else return undefined;
  }
  return value;
}

/** One line for a failure that is not the operator's input (a database that cannot be reached…). */
export function describeError(err: unknown): string {
  // pg reports a refused connection to every address of a host as an AggregateError, no message.
  if (err instanceof AggregateError) {
    const errors: unknown = err.errors;
    if (Array.isArray(errors) && errors.length > 0) return describeError(errors[0]);
  }
  if (err instanceof Error) {
    const code = 'code' in err && typeof err.code === 'string' ? err.code : err.name;
    return (err.message || code).split('\n')[0] ?? code;
  }
  return String(err);
}
