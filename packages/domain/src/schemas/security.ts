import { z } from 'zod';
import { LANGUAGES, LIMITS } from '../constants.js';
import {
  birthDateSchema,
  checkPasswordsMatch,
  emailSchema,
  firstNameSchema,
  inseeCodeSchema,
  insSchema,
  lastNameSchema,
  mobilePhoneSchema,
  passwordSchema,
  professionalIdentifierSchema,
} from './fields.js';
import { codeSchema, digitCodeProviderSchema, sentCodeProviderSchema } from './codes.js';

export * from './codes.js';

// The security-area API (spec §2 "Security area", architecture §3–4): one schema per body and
// answer, shared by the server (validation, OpenAPI) and the web forms.

const required = () => z.string({ error: 'field_required' }).min(1, 'field_required');

/**
 * Recovery codes (issue #20): 10 per set, each 12 characters of Crockford's base32 (digits and
 * letters without I, L, O, U: 60 random bits), shown in groups of 4 (`XXXX-XXXX-XXXX`).
 */
export const RECOVERY_CODES = {
  count: 10,
  length: 12,
  alphabet: '0123456789ABCDEFGHJKMNPQRSTVWXYZ',
} as const;

/**
 * A recovery code as typed, made comparable: upper case, without spaces or dashes, and the letters
 * one reads for a digit (O for 0, I and L for 1) read as that digit.
 */
export function normalizeRecoveryCode(typed: string): string {
  return typed
    .toUpperCase()
    .replace(/[\s\-‐‑‒–—]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

/** A recovery code grouped by 4 for display: `XXXX-XXXX-XXXX`. */
export function formatRecoveryCode(code: string): string {
  return (normalizeRecoveryCode(code).match(/.{1,4}/g) ?? []).join('-');
}

/** A recovery code as typed: normalised, then 12 characters of the alphabet. */
export const recoveryCodeSchema = z
  .string({ error: 'field_required' })
  .max(64, 'recovery_code_format')
  .transform(normalizeRecoveryCode)
  .pipe(z.string().regex(/^[0-9A-HJKMNP-TV-Z]{12}$/, 'recovery_code_format'));

export const sexSchema = z.enum(['male', 'female', 'unknown'], { error: 'field_required' });
export type Sex = z.infer<typeof sexSchema>;

const personFields = {
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  birthName: lastNameSchema.optional(),
  birthDate: birthDateSchema,
  birthPlaceInsee: inseeCodeSchema,
  sex: sexSchema,
  phone: mobilePhoneSchema,
};

const credentialFields = {
  email: emailSchema,
  password: passwordSchema,
  passwordConfirmation: required(),
  acceptCgu: z.literal(true, { error: 'cgu_must_be_accepted' }),
  /**
   * The terms ticked: the version and the hash of the exact text shown (GET /api/cgu). Refused
   * with 409 terms_changed when that is no longer the text in force.
   */
  cguVersion: z.string({ error: 'cgu_must_be_accepted' }).min(1).max(40),
  cguHash: z.string({ error: 'cgu_must_be_accepted' }).regex(/^[0-9a-f]{64}$/),
  /**
   * Registers the identity an upstream provider asserted and that waits, linked to no account, in
   * the pending-link cookie (GET /api/idp/pending): the provider's id. The asserted fields are
   * then the provider's, whatever the body says, and the account is created linked.
   */
  fromIdentityProvider: z.string().min(1).max(40).optional(),
};

/** POST /api/register — patient. */
export const patientRegistrationSchema = z
  .object({
    type: z.literal('patient'),
    ...credentialFields,
    ...personFields,
    /** Social security number (INS/NIR), optional at sign-up. */
    socialSecurityNumber: insSchema.optional(),
    firstNameUsed: firstNameSchema.optional(),
    lastNameUsed: lastNameSchema.optional(),
  })
  .superRefine(checkPasswordsMatch);

/** POST /api/register — professional (starts pending validation). */
export const professionalRegistrationSchema = z
  .object({
    type: z.literal('professional'),
    ...credentialFields,
    ...personFields,
    identifier: professionalIdentifierSchema,
    job: required().max(100),
    specialty: z.string().max(100).optional(),
  })
  .superRefine(checkPasswordsMatch);

export const registrationInputSchema = z.discriminatedUnion('type', [
  patientRegistrationSchema,
  professionalRegistrationSchema,
]);
export type RegistrationInput = z.input<typeof registrationInputSchema>;

/**
 * GET /api/idp/pending: what a registration form needs of the identity a provider asserted and
 * that waits to be linked. A field is null when the provider did not assert it (the person types
 * it); a non-null one is taken from the provider at registration, read-only in the form.
 */
export const pendingIdentitySchema = z.object({
  provider: z.string(),
  /** The registration it pre-fills: Pro Santé Connect → professional, FranceConnect → patient. */
  profile: z.enum(['patient', 'professional']),
  expiresAt: z.number().int(),
  asserted: z.object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    birthName: z.string().nullable(),
    /** As the forms write it: DD/MM/YYYY. */
    birthDate: z.string().nullable(),
    sex: z.enum(['male', 'female']).nullable(),
    birthPlaceInsee: z.string().nullable(),
    /** The RPPS a professional's national id carries (an ADELI is not asserted here). */
    identifier: z.object({ type: z.literal('RPPS'), value: z.string() }).nullable(),
    /** The profession, as the RPPS nomenclature names it. */
    job: z.string().nullable(),
    /**
     * A patient's used family name (nom d'usage, FranceConnect's `preferred_username`) when it
     * differs from the birth name; the profile's `lastNameUsed`.
     */
    lastNameUsed: z.string().nullable().optional(),
  }),
});
export type PendingIdentity = z.infer<typeof pendingIdentitySchema>;

export const registrationResultSchema = z.object({
  email: z.string(),
  status: z.enum(['active', 'pending_validation']),
});

/** Answer of every "send a code" call. */
export const codeSentSchema = z.object({
  /** Masked destination ("j•••t@example.fr", "06 •• •• •• 78"). */
  destination: z.string(),
  /** Seconds before another code may be asked for. */
  retryAfterSeconds: z.number().int(),
});
export type CodeSent = z.infer<typeof codeSentSchema>;

/** POST /api/verification/email/send — anonymous callers name the address; a session uses its own. */
export const emailSendInputSchema = z.object({ email: emailSchema.optional() });
/** POST /api/verification/email/verify. */
export const emailVerifyInputSchema = z.object({ email: emailSchema.optional(), code: codeSchema });
/** POST /api/verification/mobile-phone/change — sets (or replaces) the number and sends a code. */
export const phoneChangeInputSchema = z.object({ phone: mobilePhoneSchema });
/** POST /api/verification/mobile-phone/verify. */
export const phoneVerifyInputSchema = z.object({ code: codeSchema });

/** Verification data (spec §3): what is verified for the current session's user. */
export const verificationStatusSchema = z.object({
  email: z.string(),
  emailVerified: z.boolean(),
  mobile_phone: z.string().nullable(),
  mobilePhoneVerified: z.boolean(),
});

/** POST /api/mfa/send. */
export const mfaSendInputSchema = z.object({ provider: sentCodeProviderSchema });
/** A 6-digit code of the app, an e-mail or an SMS. */
const digitCodeInput = z.object({ provider: digitCodeProviderSchema, code: codeSchema });
/** A recovery code, as typed (any case, spaces and dashes). */
const recoveryCodeInput = z.object({
  provider: z.literal('recovery_code'),
  code: recoveryCodeSchema,
});
/** POST /api/mfa/verify — `trustDevice`: don't ask again on this device. */
export const mfaVerifyInputSchema = z.discriminatedUnion('provider', [
  digitCodeInput.extend({ trustDevice: z.boolean().optional() }),
  recoveryCodeInput.extend({ trustDevice: z.boolean().optional() }),
]);

/** POST /api/session/second-factor/verify: the step-up's code. */
export const stepUpCodeInputSchema = z.discriminatedUnion('provider', [
  digitCodeInput,
  recoveryCodeInput,
]);

/** POST /api/me/totp: the step-up (the current password, unless a proof is recent). */
export const totpEnrolInputSchema = z.object({
  currentPassword: z.string().min(1, 'field_required').max(LIMITS.passwordMax).optional(),
});
/** POST /api/me/totp's answer: the `otpauth://` URI to show once (QR code and key). */
export const totpEnrolmentSchema = z.object({ otpauthUri: z.string() });
/** POST /api/me/totp/confirm: a first code of the app. */
export const totpConfirmInputSchema = z.object({ code: codeSchema });
/** DELETE /api/me/totp: the step-up. */
export const totpRemoveInputSchema = totpEnrolInputSchema;
/** GET /api/me/totp: whether the account has an authenticator app, and since when. */
export const totpStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.number().nullable(),
});
export type TotpStatus = z.infer<typeof totpStatusSchema>;
/**
 * POST /api/me/totp/confirm's answer: the status, and the first recovery codes when the account
 * had none left (shown once).
 */
export const totpConfirmedSchema = totpStatusSchema.extend({
  recoveryCodes: z.array(z.string()).optional(),
});
export type TotpConfirmed = z.infer<typeof totpConfirmedSchema>;

/** POST /api/me/recovery-codes: the step-up (the current password, unless a proof is recent). */
export const recoveryCodesInputSchema = totpEnrolInputSchema;
/** POST /api/me/recovery-codes's answer: the new set, shown once (`XXXX-XXXX-XXXX`). */
export const recoveryCodesSchema = z.object({ codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;
/** GET /api/me/recovery-codes: how many are left (never the codes), and when the set was made. */
export const recoveryCodesStatusSchema = z.object({
  remaining: z.number().int(),
  createdAt: z.number().nullable(),
});
export type RecoveryCodesStatus = z.infer<typeof recoveryCodesStatusSchema>;
/** The answer of a sign-in completed with a recovery code: how many remain. */
export const recoveryCodeUsedSchema = z.object({ recoveryCodesLeft: z.number().int() });

/** One section of the terms of use. */
export const cguSectionSchema = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(10_000),
});
/** The terms of a version in one language, as published (never changed afterwards). */
export const cguTextSchema = z.object({
  version: z.string(),
  /** The date the version took effect, YYYY-MM-DD. */
  publishedAt: z.string(),
  language: z.enum(LANGUAGES),
  sections: z.array(cguSectionSchema),
  /** SHA-256 (hex) of the text: an acceptance names it. */
  hash: z.string(),
});
/** GET /api/cgu: the terms in force in the asked language, and the version this user accepted. */
export const cguStatusSchema = cguTextSchema.extend({
  acceptedVersion: z.string().nullable(),
});
export type CguText = z.infer<typeof cguTextSchema>;
export type CguStatus = z.infer<typeof cguStatusSchema>;
/** POST /api/cgu/accept: the version and the hash of the exact text the user read. */
export const cguAcceptInputSchema = z.object({
  version: z.string().min(1).max(40),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
/** The texts of a new version, in every language. */
export const cguTextsSchema = z.object({
  fr: z.array(cguSectionSchema).min(1).max(50),
  en: z.array(cguSectionSchema).min(1).max(50),
  ar: z.array(cguSectionSchema).min(1).max(50),
});
/**
 * A terms version published (`cgu:publish`, the admin area): the version every user then accepts,
 * its effective date (a real calendar date, YYYY-MM-DD; today when omitted — a later date schedules
 * it: in force from that day on) and its text in every language.
 */
export const cguPublishInputSchema = z.object({
  version: z.string().trim().min(1).max(40),
  publishedAt: z.iso.date({ error: 'expected a real calendar date, YYYY-MM-DD' }).optional(),
  texts: cguTextsSchema,
});
export type CguPublishInput = z.infer<typeof cguPublishInputSchema>;

/** GET /api/admin/cgu: every published terms version, newest publication first. */
export const adminCguVersionListSchema = z.object({
  versions: z.array(
    z.object({
      version: z.string(),
      /** The date the version took effect, YYYY-MM-DD. */
      effectiveDate: z.string(),
      /** When it was published (ISO), and by which admin (null: the command line). */
      publishedAt: z.iso.datetime(),
      publishedBy: z.object({ id: z.string(), email: z.string() }).nullable(),
      /** The SHA-256 of its text in each language. */
      hashes: z.object({ fr: z.string(), en: z.string(), ar: z.string() }),
      /** The version users accept now. */
      inForce: z.boolean(),
      /** Published with a future effective date: in force from that date on. */
      scheduled: z.boolean(),
    }),
  ),
});
export type AdminCguVersionList = z.infer<typeof adminCguVersionListSchema>;
/** GET /api/admin/cgu/:version: a published version's text in every language (to start a new one from). */
export const adminCguVersionTextsSchema = z.object({
  version: z.string(),
  effectiveDate: z.string(),
  texts: z.object({
    fr: z.array(cguSectionSchema),
    en: z.array(cguSectionSchema),
    ar: z.array(cguSectionSchema),
  }),
});
export type AdminCguVersionTexts = z.infer<typeof adminCguVersionTextsSchema>;
/**
 * POST /api/admin/cgu → the version published, its effective date, whether it waits for that date
 * (`scheduled`; otherwise in force now) and the hash of each language's text.
 */
export const cguPublishedSchema = z.object({
  version: z.string(),
  publishedAt: z.string(),
  scheduled: z.boolean(),
  hashes: z.object({ fr: z.string(), en: z.string(), ar: z.string() }),
});

/**
 * POST /api/password/renew — the password expired or must be created. The session reached this
 * stage by checking the current password moments ago, so it is not asked again.
 */
export const passwordRenewInputSchema = z
  .object({
    password: passwordSchema,
    passwordConfirmation: required(),
  })
  .superRefine(checkPasswordsMatch);

export const channelSchema = sentCodeProviderSchema;
/** POST /api/password/forgot — the same answer whether the account exists or not. */
export const forgotPasswordInputSchema = z.object({
  username: z.string().trim().min(1, 'field_required').max(LIMITS.usernameMax),
  channel: channelSchema,
});
/** POST /api/password/forgot/verify → a short-lived reset token. */
export const forgotPasswordVerifyInputSchema = z.object({
  username: z.string().trim().min(1, 'field_required').max(LIMITS.usernameMax),
  channel: channelSchema,
  code: codeSchema,
});
export const resetTokenSchema = z.object({ resetToken: z.string() });
/** POST /api/password/reset. */
export const passwordResetInputSchema = z
  .object({
    resetToken: z.string().min(1).max(200),
    password: passwordSchema,
    passwordConfirmation: required(),
  })
  .superRefine(checkPasswordsMatch);

/** Query of GET /api/first-login and the link's parameters. */
export const firstLoginLinkSchema = z.object({
  personIdentifier: z.string().min(1).max(64),
  email: z.string().trim().min(1).max(LIMITS.emailMax),
  code: z.string().min(1).max(200),
});
export const firstLoginInfoSchema = z.object({
  email: z.string(),
  firstName: z.string().nullable(),
});
/** POST /api/first-login — sets the first password. */
export const firstLoginInputSchema = firstLoginLinkSchema
  .extend({ password: passwordSchema, passwordConfirmation: required() })
  .superRefine(checkPasswordsMatch);

/** POST /api/lock-account — from the "not you?" link of a sign-in notice. */
export const lockAccountInputSchema = z.object({
  email: z.string().trim().min(1).max(LIMITS.emailMax),
  code: z.string().min(1).max(200),
});
export const lockAccountResultSchema = z.object({ username: z.string() });

/** Any answer that only says it worked. */
export const okSchema = z.object({ ok: z.literal(true) });
/** A passkey stored: and the first recovery codes, when the account had none left (shown once). */
export const passkeyEnrolledSchema = okSchema.extend({
  recoveryCodes: z.array(z.string()).optional(),
});
