import type { MfaData } from '@hygie/domain';
import { apiError, json, type FakeHandler } from './fake-api';
import { makeCguStatus } from './factories';

export const MFA_DATA: MfaData = {
  user_identifier: 'user-1',
  two_factor_providers: ['email', 'sms'],
  email_hint: 'm•••e@example.fr',
  sms_hint: '+33 6 •• •• •• 78',
  sms_enabled: true,
};

/** GET /api/me answering a pending sign-in stage (as the server does for a half-open session). */
export function pendingMe(code: string, data?: Record<string, unknown>): FakeHandler {
  const status = code === 'two_factor_authentication_required' ? 401 : 403;
  return () => apiError(status, code, data);
}

/** The code-refusals every code screen must explain, with their French text. */
export const CODE_ERRORS: [string, Record<string, unknown> | undefined, string][] = [
  ['wrong_code', { remainingAttempts: 3 }, 'Code incorrect. Il vous reste 3 essais.'],
  ['wrong_code', { remainingAttempts: 1 }, 'Code incorrect. Il vous reste 1 essai.'],
  ['code_expired', undefined, 'Ce code a expiré. Demandez-en un nouveau.'],
  ['code_invalid', undefined, 'Ce code n’est pas valide.'],
  ['too_many_trials', undefined, 'Trop d’essais pour ce code. Veuillez recommencer la procédure.'],
];

/** Answers of the calls the security screens make when they open or move to a later step. */
export const SECURITY_SCREEN_HANDLERS: Record<string, FakeHandler> = {
  'GET /api/cgu': () => json(200, makeCguStatus()),
  'GET /api/mfa': () => json(200, MFA_DATA),
  'POST /api/mfa/send': () => json(200, { destination: 'm•••e@example.fr', retryAfterSeconds: 60 }),
  'GET /api/verification': () =>
    json(200, {
      email: 'marie.dupont@example.fr',
      emailVerified: false,
      mobile_phone: '+33612345678',
      mobilePhoneVerified: false,
    }),
  'POST /api/verification/mobile-phone/change': () =>
    json(200, { destination: '+33 6 •• •• •• 78', retryAfterSeconds: 60 }),
  'POST /api/password/forgot': () => json(200, { destination: '', retryAfterSeconds: 60 }),
  'POST /api/password/forgot/verify': () => json(200, { resetToken: 'token' }),
  'GET /api/first-login': () => json(200, { email: 'paul@example.fr', firstName: 'Paul' }),
};
