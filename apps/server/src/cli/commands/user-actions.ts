import { BRANDS, emailSchema, normalizeEmail, type UserAction } from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { actOnUser } from '../../modules/admin/user-actions.js';
import { findUserByEmail } from '../../modules/users/service.js';
import { defineCommand, parseInput } from '../command.js';

const targetSchema = z.object({
  email: emailSchema,
  brand: z.enum(BRANDS).default('hygie'),
});

/** One of the admin area's actions on an account, from the command line (audited `via: cli`). */
function userCommand(name: string, action: UserAction, summary: string, description: string) {
  return defineCommand({
    name,
    summary,
    usage: '--email ADDRESS [--brand hygie|telecare]',
    description,
    options: {
      email: { type: 'string' },
      brand: { type: 'string' },
    },
    help: {
      email: { value: 'ADDRESS', text: 'the account’s e-mail address (required)' },
      brand: {
        value: 'BRAND',
        text: 'the brand of the e-mail sent to the person (hygie by default)',
      },
    },
    run: async (values, env) => {
      const input = parseInput(
        targetSchema,
        { email: values.email, brand: values.brand },
        { email: 'email', brand: 'brand' },
      );
      const ctx = await env.context();
      const user = await findUserByEmail(ctx.db, normalizeEmail(input.email));
      if (!user) throw new AppError('not_found');
      await actOnUser(ctx, user.id, action, { via: 'cli', brand: input.brand });
      return {
        data: { userId: user.id, email: user.email, action },
        text: `${user.email}: ${action} done`,
      };
    },
  });
}

export const userLock = userCommand(
  'user:lock',
  'lock',
  'locks an account: every session, trusted browser, key and platform token ends',
  'Locks the account (sign-in answers account_locked until it is unlocked), ends every session,\ntrusted browser, app key and platform token, and e-mails the person whom to contact.',
);

export const userUnlock = userCommand(
  'user:unlock',
  'unlock',
  'unlocks a locked account and clears its sign-in throttle',
  'Unlocks a locked account, clears its sign-in throttle and tells the person by e-mail.',
);

export const userReset = userCommand(
  'user:reset',
  'send-password-reset',
  'e-mails the person a link (valid 24 h) to choose a new password',
  'E-mails the person a link, valid 24 hours, to choose a new password; an earlier link stops\nworking. The current password keeps working until a new one is chosen.',
);
