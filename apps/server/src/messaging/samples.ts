/**
 * Every parameter a template may use, with values easy to spot in the output: the message
 * tests render each template with them, and the development preview shows them.
 */
export const SAMPLE_PARAMS: Record<string, string> = {
  code: '135790',
  link: 'http://localhost:3000/security/first-login?code=abc',
  lockUrl: 'http://localhost:3000/security/lock-account?email=a%40b.fr&code=xyz',
  loginUrl: 'http://localhost:3000/security/login',
  contactEmail: 'help@hygie.test',
  at: String(Date.UTC(2026, 10, 21, 10, 0)),
  ttlSeconds: '600',
  ip: '192.0.2.7',
  device: 'Chrome / Linux',
  newEmail: 'new@hygie.test',
  newPhone: '+33611111111',
  keys: 'iPhone de Jeanne, Pixel',
  devicesUrl: 'http://localhost:3000/devices',
  change: 'disabled',
  provider: 'Pro Santé Connect',
  remaining: '7',
};
