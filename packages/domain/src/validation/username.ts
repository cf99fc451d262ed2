import { isValidEmail } from './email.js';
import { isValidIns } from './ins.js';
import { normalizeMobilePhone } from './phone.js';
import { isValidRpps, parseNationalProfessionalId } from './professional-ids.js';

/** What a login identifier looks like. */
export type UsernameKind =
  'email' | 'phone' | 'ins' | 'rpps' | 'national_professional_id' | 'unknown';

/**
 * Guesses what the login field holds. A 10-digit value starting with 0 is read as a mobile phone
 * before `0` + ADELI, since both forms overlap (0612345678).
 */
export function detectUsernameKind(value: string): UsernameKind {
  const username = value.trim();
  if (username.includes('@')) return isValidEmail(username) ? 'email' : 'unknown';
  if (isValidIns(username)) return 'ins';
  const compact = username.replace(/\s+/gu, '');
  if (/^\d{11}$/.test(compact) && isValidRpps(compact)) return 'rpps';
  const national = parseNationalProfessionalId(username);
  if (national?.type === 'RPPS') return 'national_professional_id';
  if (normalizeMobilePhone(username) !== null) return 'phone';
  if (national?.type === 'ADELI') return 'national_professional_id';
  return 'unknown';
}
