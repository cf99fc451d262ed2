import fs from 'node:fs';
import { cguPublishInputSchema } from '@hygie/domain';
import { publishTerms } from '../../modules/consent/service.js';
import { defineCommand, parseInput, UsageError } from '../command.js';

/** The texts file: JSON, `{"fr": [{"title", "body"}…], "en": […], "ar": […]}`. */
function readTexts(file: string | undefined): unknown {
  if (file === undefined) return undefined;
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`--file ${JSON.stringify(file)}: cannot be read`);
  }
  try {
    const texts: unknown = JSON.parse(raw);
    return texts;
  } catch {
    throw new UsageError(`--file ${JSON.stringify(file)}: not JSON`);
  }
}

export const cguPublish = defineCommand({
  name: 'cgu:publish',
  summary:
    'publishes a new terms-of-use version with its text in every language, in force from its date: every user accepts it at the next sign-in from then on',
  usage: '--version VERSION --file TEXTS.json [--date YYYY-MM-DD]',
  options: {
    version: { type: 'string' },
    file: { type: 'string' },
    date: { type: 'string' },
  },
  help: {
    version: {
      value: 'VERSION',
      text: 'the version users accept, 1 to 40 characters, never published before (required)',
    },
    file: {
      value: 'TEXTS.json',
      text: 'the text in every language, JSON: {"fr": [{"title": "…", "body": "…"}, …], "en": […], "ar": […]} (required)',
    },
    date: {
      value: 'YYYY-MM-DD',
      text: 'its effective date, a real calendar date, not before the version in force’s (default: today); a later date schedules it: in force from that day on (TIME_ZONE)',
    },
  },
  run: async (values, env) => {
    const input = parseInput(
      cguPublishInputSchema,
      { version: values.version, publishedAt: values.date, texts: readTexts(values.file) },
      { version: 'version', publishedAt: 'date', texts: 'file' },
    );
    const terms = await publishTerms(await env.context(), input, null);
    return {
      data: terms,
      text: terms.scheduled
        ? `terms version ${terms.version} scheduled: in force from ${terms.publishedAt}, every user accepts it at the next sign-in from then on`
        : `terms version ${terms.version} in force: every user accepts it at the next sign-in`,
    };
  },
});
