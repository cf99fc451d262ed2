import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { isFrenchPlanPhone } from './phone.js';

const DOT = '•';

/** Groups `chars` in pairs from the right: "12345" → "1 23 45". */
function pairsFromRight(chars: string): string {
  const groups: string[] = [];
  for (let end = chars.length; end > 0; end -= 2)
    groups.unshift(chars.slice(Math.max(0, end - 2), end));
  return groups.join(' ');
}

/**
 * Phone hint for MFA: French-plan numbers in national form with their first group and last 2
 * digits kept (+33612345678 → "06 •• •• •• 78", +590690123456 → "0690 •• •• 56"); others with
 * country code, first national digit and last 2 digits (+447400123456 → "+44 7 • •• •• •• 56").
 * Anything unparseable keeps only its last 2 digits.
 */
export function maskPhone(e164: string): string {
  let parsed: ReturnType<typeof parsePhoneNumberFromString>;
  try {
    parsed = parsePhoneNumberFromString(e164.trim());
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.nationalNumber.length < 4) {
    const digits = e164.replace(/\D/g, '');
    return DOT.repeat(Math.max(0, digits.length - 2)) + digits.slice(-2);
  }
  const national = parsed.nationalNumber;
  if (isFrenchPlanPhone(e164)) {
    // As the number is read in France: its first group kept, then pairs ("06 •• •• •• 78").
    const [first = '', ...rest] = parsed.formatNational().split(' ');
    const tail = rest.join('');
    if (tail.length >= 2) {
      return `${first} ${pairsFromRight(DOT.repeat(tail.length - 2) + tail.slice(-2))}`;
    }
  }
  const hidden = DOT.repeat(national.length - 3) + national.slice(-2);
  return `+${parsed.countryCallingCode} ${national.slice(0, 1)} ${pairsFromRight(hidden)}`;
}

/**
 * E-mail hint for MFA: the local part keeps its first and last characters
 * ("jean.dupont@example.fr" → "j•••••••••t@example.fr"); the domain is kept.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = [...(at < 0 ? email : email.slice(0, at))];
  const domain = at < 0 ? '' : email.slice(at);
  let masked: string;
  if (local.length <= 1) masked = DOT.repeat(local.length);
  else if (local.length === 2) masked = `${local[0] ?? ''}${DOT}`;
  else masked = `${local[0] ?? ''}${DOT.repeat(local.length - 2)}${local[local.length - 1] ?? ''}`;
  return masked + domain;
}
