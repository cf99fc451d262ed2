import { LANGUAGES, invitationInputSchema } from '@hygie/domain';
import { z } from 'zod';
import { inviteUser } from '../../modules/first-login/invite.js';
import { defineCommand, parseInput } from '../command.js';

/** The API's invitation (POST /api/admin/invitations), with the language the API takes from the request. */
const cliInvitationSchema = invitationInputSchema.extend({
  language: z.enum(LANGUAGES).default('fr'),
});

export const invite = defineCommand({
  name: 'invite',
  summary: 'creates an account without a password, e-mails its first-login link and prints it',
  usage:
    '--email ADDRESS [--admin] [--first-name NAME] [--last-name NAME] [--profile patient|professional] [--language fr|en|ar]',
  description:
    'Creates an account without a password and e-mails its first-login link (valid 7 days), in the\nchosen language; prints the link. The input is checked by the rules of the admin API’s invitation.',
  options: {
    email: { type: 'string' },
    admin: { type: 'boolean', default: false },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    profile: { type: 'string' },
    language: { type: 'string' },
  },
  help: {
    email: { value: 'ADDRESS', text: 'the person’s e-mail address (required)' },
    admin: { text: 'make the account an administrator' },
    'first-name': { value: 'NAME', text: 'first name' },
    'last-name': { value: 'NAME', text: 'last name' },
    profile: { value: 'PROFILE', text: 'patient or professional (none by default)' },
    language: { value: 'LANGUAGE', text: 'fr (default), en or ar: the e-mail’s language' },
  },
  run: async (values, env) => {
    const input = parseInput(
      cliInvitationSchema,
      {
        email: values.email,
        admin: values.admin,
        firstName: values['first-name'],
        lastName: values['last-name'],
        profile: values.profile,
        language: values.language,
      },
      {
        email: 'email',
        admin: 'admin',
        firstName: 'first-name',
        lastName: 'last-name',
        profile: 'profile',
        language: 'language',
      },
    );
    const { userId, link } = await inviteUser(await env.context(), {
      email: input.email,
      admin: input.admin ?? false,
      profile: input.profile ?? null,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      language: input.language,
    });
    return { data: { userId, email: input.email, link }, text: link };
  },
});
