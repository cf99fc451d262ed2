import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { auditQuerySchema } from '@hygie/domain';
import { z } from 'zod';
import { auditCsv, EXPORT_LIMIT } from '../../modules/audit/query.js';
import { defineCommand, parseInput } from '../command.js';

const exportSchema = auditQuerySchema
  .omit({ cursor: true, limit: true })
  .extend({ output: z.string().min(1) });

export const auditExport = defineCommand({
  name: 'audit:export',
  summary: 'writes the audit trail, filtered, to a CSV file (at most 100,000 events)',
  usage: '--output FILE [--user ID] [--type ACTION] [--from DAY|INSTANT] [--to DAY|INSTANT]',
  description: `Writes the audit trail, newest first, to a CSV file readable by its owner only (at most
${EXPORT_LIMIT.toLocaleString('en')} events: narrow by dates for more). Values a spreadsheet would run as formulas are
neutralised. The export is itself audited.`,
  options: {
    output: { type: 'string' },
    user: { type: 'string' },
    type: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  },
  help: {
    output: {
      value: 'FILE',
      text: 'the CSV file to write; an existing file is refused (required)',
    },
    user: { value: 'ID', text: 'only the events about this user (their id)' },
    type: { value: 'ACTION', text: 'only this action, e.g. login_failed' },
    from: { value: 'DAY|INSTANT', text: 'from this day (UTC, YYYY-MM-DD) or ISO 8601 instant' },
    to: { value: 'DAY|INSTANT', text: 'to this day (included) or instant' },
  },
  run: async (values, env) => {
    const { output, ...query } = parseInput(
      exportSchema,
      {
        output: values.output,
        user: values.user,
        type: values.type,
        from: values.from,
        to: values.to,
      },
      { output: 'output', user: 'user', type: 'type', from: 'from', to: 'to' },
    );
    const ctx = await env.context();
    const progress = { events: 0 };
    // `wx`: never overwrite a file; 0600: the trail holds addresses and user agents.
    await pipeline(
      Readable.from(auditCsv(ctx, query, { via: 'cli' }, progress)),
      fs.createWriteStream(output, { flags: 'wx', mode: 0o600 }),
    );
    return {
      data: { file: output, events: progress.events },
      text: `${progress.events} events written to ${output}`,
    };
  },
});
