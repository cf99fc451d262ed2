import { z } from 'zod';
import { LIMITS } from '../constants.js';
import { accountStatusSchema } from './session.js';
import {
  birthDateSchema,
  checkPasswordsMatch,
  emailSchema,
  firstNameSchema,
  genderSchema,
  inseeCodeSchema,
  insSchema,
  lastNameSchema,
  mobilePhoneSchema,
  passwordSchema,
  postalAddressSchema,
  professionalCategorySchema,
  professionalIdentifierSchema,
} from './fields.js';
import { codeSchema, sexSchema } from './security.js';

// The signed-in area (spec §2 "Main area", §3): profile, devices, dashboard, support.

/** GET /api/profile — every person field of spec §3. */
export const profileSchema = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phone: z.string().nullable(),
  phoneVerified: z.boolean(),
  profile: z.enum(['patient', 'professional']).nullable(),
  status: accountStatusSchema,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  birthName: z.string().nullable(),
  /** DD/MM/YYYY as the UI shows it (00 for an unknown day or month). */
  birthDate: z.string().nullable(),
  birthPlaceInsee: z.string().nullable(),
  sex: sexSchema.nullable(),
  ins: z.string().nullable(),
  insOid: z.string().nullable(),
  firstNameUsed: z.string().nullable(),
  lastNameUsed: z.string().nullable(),
  identifierType: z.string().nullable(),
  identifier: z.string().nullable(),
  job: z.string().nullable(),
  specialty: z.string().nullable(),
  /** A professional's category (ANS TRE_R09 code: C civil, M military, E student). */
  category: professionalCategorySchema.nullable(),
  /** A postal address (both profiles). */
  address: z
    .object({
      line1: z.string(),
      line2: z.string().nullable(),
      postalCode: z.string(),
      city: z.string(),
      country: z.string(),
    })
    .nullable(),
  /** Self-declared gender, how the person wishes to be addressed (not the civil-status sex). */
  gender: genderSchema.nullable(),
  /** A patient's parent's INS ("ouvrant droit"), typically for a minor. */
  parentIns: z.string().nullable(),
  language: z.enum(['fr', 'en', 'ar']),
  /** Pending e-mail / phone changes awaiting their code. */
  pendingEmail: z.string().nullable(),
  pendingPhone: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

/** The fields of PATCH /api/profile, each optional. */
const profileFieldsSchema = z
  .object({
    firstName: firstNameSchema,
    lastName: lastNameSchema,
    birthName: lastNameSchema.nullable(),
    birthDate: birthDateSchema,
    birthPlaceInsee: inseeCodeSchema,
    sex: sexSchema,
    language: z.enum(['fr', 'en', 'ar']),
    ins: insSchema.nullable(),
    firstNameUsed: firstNameSchema.nullable(),
    lastNameUsed: lastNameSchema.nullable(),
    identifier: professionalIdentifierSchema.nullable(),
    job: z.string().trim().min(1, 'field_required').max(100).nullable(),
    specialty: z.string().trim().max(100).nullable(),
    category: professionalCategorySchema.nullable(),
    address: postalAddressSchema.nullable(),
    gender: genderSchema.nullable(),
    parentIns: insSchema.nullable(),
  })
  .partial();

/**
 * PATCH /api/profile — the fields a user edits directly (e-mail and phone go through a code).
 * The parent's INS is never the patient's own (checked here when both come, by the server
 * against the stored INS otherwise).
 */
export const profileUpdateSchema = profileFieldsSchema.superRefine((value, ctx) => {
  if (value.parentIns && value.parentIns === value.ins) {
    ctx.addIssue({
      code: 'custom',
      message: 'parent_ins_same',
      path: ['parentIns'],
      input: value.parentIns,
    });
  }
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;

/**
 * PATCH /api/admin/users/:id/identity — an admin corrects the checked identity of a validated
 * professional (names, birth traits, professional identifier), audited.
 */
export const identityCorrectionSchema = profileFieldsSchema.pick({
  firstName: true,
  lastName: true,
  birthName: true,
  birthDate: true,
  birthPlaceInsee: true,
  sex: true,
  identifier: true,
});
export type IdentityCorrection = z.input<typeof identityCorrectionSchema>;

/** POST /api/profile/email — a new address, confirmed by a code sent to it; the password proves it is you. */
export const emailChangeInputSchema = z.object({
  email: emailSchema,
  currentPassword: z.string().min(1, 'field_required').max(LIMITS.passwordMax),
});
/** POST /api/profile/phone — a new mobile number, confirmed by an SMS code. */
export const phoneChangeRequestSchema = z.object({
  phone: mobilePhoneSchema,
  currentPassword: z.string().min(1, 'field_required').max(LIMITS.passwordMax),
});
/** POST /api/profile/email/verify and /api/profile/phone/verify. */
export const changeVerifyInputSchema = z.object({ code: codeSchema });

/** POST /api/session/reauthenticate — the step-up before a sensitive change (security.md). */
export const reauthenticateInputSchema = z.object({
  password: z.string().min(1, 'field_required').max(LIMITS.passwordMax),
});

/** POST /api/profile/password. */
export const passwordChangeInputSchema = z
  .object({
    currentPassword: z.string().min(1, 'field_required').max(LIMITS.passwordMax),
    password: passwordSchema,
    passwordConfirmation: z.string({ error: 'field_required' }).min(1, 'field_required'),
  })
  .superRefine(checkPasswordsMatch);

/** GET /api/devices — the user's trusted devices. */
export const trustedDeviceSchema = z.object({
  id: z.string(),
  userAgent: z.string().nullable(),
  /** Readable "browser on OS" from the user agent. */
  label: z.string(),
  ip: z.string().nullable(),
  creationDate: z.string(),
  lastUsed: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export const trustedDeviceListSchema = z.array(trustedDeviceSchema);
export type TrustedDevice = z.infer<typeof trustedDeviceSchema>;

/** GET /api/dashboard — what needs the user's attention. */
export const dashboardSchema = z.object({
  attention: z.array(
    z.object({
      kind: z.enum([
        'phone_unverified',
        'password_expiring',
        'no_trusted_device',
        'terms_to_accept',
      ]),
      /** For password_expiring: when the password expires (ISO). */
      at: z.string().optional(),
    }),
  ),
  trustedDevices: z.number().int(),
  passwordExpiresAt: z.string().nullable(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** GET /api/support — the support contact, from configuration. */
export const supportSchema = z.object({
  contact: z.string(),
  phone: z.string().nullable(),
  mail: z.string(),
  website: z.string().nullable(),
  headOffice: z.string().nullable(),
  usefulLinks: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type Support = z.infer<typeof supportSchema>;
