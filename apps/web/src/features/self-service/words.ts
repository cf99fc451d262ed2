import type { TFunction } from 'i18next';
import type { DeviceName } from '@hygie/domain';

/** A device in words: "Chrome on Windows", or as much of it as the user agent said. */
export function deviceInWords(t: TFunction, device: DeviceName | null): string {
  if (device?.browser && device.os) {
    return t('self-service:device.on', { browser: device.browser, os: device.os });
  }
  if (device?.browser) return t('self-service:device.browser', { browser: device.browser });
  if (device?.os) return t('self-service:device.os', { os: device.os });
  return t('self-service:device.unknown');
}

const METHODS = ['pwd', 'otp', 'totp', 'sms', 'hwk', 'user', 'ext'] as const;
const SCOPES = [
  'openid',
  'email',
  'phone',
  'profile',
  'address',
  'health',
  'offline_access',
] as const;

function known<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((item) => item === value);
}

/** Items as a list of the language ("a, b and c"; Arabic commas and "و"). */
export function listInWords(language: string, items: string[]): string {
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(items);
}

/** How a session was proven, in words ("password and code by e-mail"); unknown ones as they are. */
export function methodsInWords(t: TFunction, language: string, methods: string[]): string {
  return listInWords(
    language,
    methods.map((m) => (known(METHODS, m) ? t(`self-service:methods.${m}`) : m)),
  );
}

/** A scope in words ("your e-mail address"); an unknown one as it is. */
export function scopeInWords(t: TFunction, scope: string): string {
  return known(SCOPES, scope) ? t(`self-service:platforms.scope.${scope}`) : scope;
}
