import type { MfaData } from '@hygie/domain';

/**
 * The translation key saying why SMS is not offered for a second factor: no number on the
 * account (add one), or a number not verified yet; a server that does not say gets the general
 * sentence.
 */
export function smsUnavailableKey(data: Pick<MfaData, 'sms_unavailable'> | undefined): string {
  switch (data?.sms_unavailable) {
    case 'no_phone':
      return 'security:mfa.smsNoPhone';
    case 'phone_unverified':
      return 'security:mfa.smsUnverified';
    default:
      return 'security:mfa.smsUnavailable';
  }
}
