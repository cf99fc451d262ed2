import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const DOT = '•';

/** Groups `chars` in pairs from the right: "12345" → "1 23 45". */
function pairsFromRight(chars: string): string {
  const groups: string[] = [];
  for (let end = chars.length; end > 0; end -= 2)
    groups.unshift(chars.slice(Math.max(0, end - 2), end));
  return groups.join(' ');
}

/**
 * Phone hint for MFA: country code, first national digit and last 2 digits kept
 * (+33612345678 → "+33 6 •• •• •• 78"). Anything unparseable keeps only its last 2 digits.
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
