import { cguPublishInputSchema } from '@hygie/domain';
import { publishTerms } from '../../modules/settings/service.js';
import { defineCommand, parseInput } from '../command.js';

export const cguPublish = defineCommand({
  name: 'cgu:publish',
  summary: 'puts a new terms-of-use version in force: every user accepts it at the next sign-in',
  usage: '--version VERSION [--date YYYY-MM-DD]',
  options: {
    version: { type: 'string' },
    date: { type: 'string' },
  },
  help: {
    version: { value: 'VERSION', text: 'the version users accept, 1 to 40 characters (required)' },
    date: {
      value: 'YYYY-MM-DD',
      text: 'its publication date, a real calendar date (default: today)',
    },
  },
  run: async (values, env) => {
    const input = parseInput(
      cguPublishInputSchema,
      { version: values.version, publishedAt: values.date },
      { version: 'version', publishedAt: 'date' },
    );
    const terms = await publishTerms(await env.context(), input, null);
    return {
      data: terms,
      text: `terms version ${terms.version} in force: every user accepts it at the next sign-in`,
    };
  },
});
