import { z } from 'zod';
import { LANGUAGES, type CodeSent, type MfaData } from '@hygie/domain';
import type {
  cguStatusSchema,
  cguTextSchema,
  firstLoginInfoSchema,
  lockAccountResultSchema,
  verificationStatusSchema,
} from '@hygie/domain';

// Light copies of the domain's answer schemas for the screens of the sign-in path: the domain's
// `schemas/security` module pulls every validator, phone metadata included, into whatever imports
// a value from it (docs/web.md). Each copy is typed by the domain's own type: a field the domain
// adds or changes and the copy lacks fails the typecheck.

/** Any answer that only says it worked. */
export const okAnswer = z.object({ ok: z.literal(true) });

/** Answer of every "send a code" call. */
export const codeSentAnswer: z.ZodType<CodeSent> = z.object({
  destination: z.string(),
  retryAfterSeconds: z.number().int(),
});

/** GET /api/verification. */
export const verificationStatusAnswer: z.ZodType<z.infer<typeof verificationStatusSchema>> =
  z.object({
    email: z.string(),
    emailVerified: z.boolean(),
    mobile_phone: z.string().nullable(),
    mobilePhoneVerified: z.boolean(),
  });

/** GET /api/mfa. */
export const mfaDataAnswer: z.ZodType<MfaData> = z.object({
  user_identifier: z.string(),
  two_factor_providers: z.array(z.enum(['email', 'sms'])),
  email_hint: z.string(),
  sms_hint: z.string().nullable(),
  sms_enabled: z.boolean(),
});

/** GET /api/cgu. */
export const cguStatusAnswer: z.ZodType<z.infer<typeof cguStatusSchema>> = cguTextShape().extend({
  acceptedVersion: z.string().nullable(),
});

/** GET /api/cgu/versions/:version. */
export const cguTextAnswer: z.ZodType<z.infer<typeof cguTextSchema>> = cguTextShape();

function cguTextShape() {
  return z.object({
    version: z.string(),
    publishedAt: z.string(),
    language: z.enum(LANGUAGES),
    sections: z.array(z.object({ title: z.string(), body: z.string() })),
    hash: z.string(),
  });
}

/** GET /api/first-login. */
export const firstLoginInfoAnswer: z.ZodType<z.infer<typeof firstLoginInfoSchema>> = z.object({
  email: z.string(),
  firstName: z.string().nullable(),
});

/** POST /api/lock-account. */
export const lockAccountAnswer: z.ZodType<z.infer<typeof lockAccountResultSchema>> = z.object({
  username: z.string(),
});
