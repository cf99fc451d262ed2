import type { CguStatus, CurrentUser } from '@hygie/domain';

/** A signed-in patient whose session ends in an hour. */
export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  const now = Date.now();
  return {
    type: 'person',
    id: 'user-1',
    email: 'marie.dupont@example.fr',
    emailVerified: true,
    phone: '+33612345678',
    phoneVerified: true,
    firstName: 'Marie',
    lastName: 'Dupont',
    profile: 'patient',
    status: 'active',
    roles: [],
    language: 'fr',
    session: {
      expiresAt: new Date(now + 60 * 60 * 1000).toISOString(),
      absoluteExpiresAt: new Date(now + 12 * 60 * 60 * 1000).toISOString(),
    },
    ...overrides,
  };
}

export const PUBLIC_CONFIG = {
  release: '1.4.2',
  sentryDsn: null,
  sentryEnvironment: 'test',
  xsrfCookieName: 'XSRF-TOKEN',
  contactEmail: 'support@hygie.example',
  sessionWarningSeconds: 300,
  identityProviders: [],
};

/** The terms in force as GET /api/cgu answers them: two sections, in French. */
export function makeCguStatus(overrides: Partial<CguStatus> = {}): CguStatus {
  return {
    version: '2025-03',
    publishedAt: '2025-03-01',
    language: 'fr',
    sections: [
      { title: 'Objet', body: 'Le portail vous permet de vous connecter aux services de santé.' },
      { title: 'Votre compte', body: 'Votre compte est strictement personnel.' },
    ],
    hash: 'a'.repeat(64),
    acceptedVersion: null,
    ...overrides,
  };
}
