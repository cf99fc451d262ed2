import { makeCguStatus } from './factories';
import type { AdminUser, AdminUserDetail, Profile, Setting, TrustedDevice } from '@hygie/domain';

/** Answers of the signed-in area's calls (dashboard, profile, devices, services, admin). */
export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'user-1',
    email: 'marie.dupont@example.fr',
    emailVerified: true,
    phone: '+33612345678',
    phoneVerified: true,
    profile: 'patient',
    status: 'active',
    firstName: 'Marie',
    lastName: 'Dupont',
    birthName: null,
    birthDate: '15/04/1985',
    birthPlaceInsee: '75056',
    sex: 'female',
    ins: null,
    insOid: null,
    firstNameUsed: null,
    lastNameUsed: null,
    identifierType: null,
    identifier: null,
    job: null,
    specialty: null,
    category: null,
    address: null,
    gender: null,
    parentIns: null,
    language: 'fr',
    pendingEmail: null,
    pendingPhone: null,
    ...overrides,
  };
}

export function makeDevice(overrides: Partial<TrustedDevice> = {}): TrustedDevice {
  return {
    id: 'device-1',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    label: 'Firefox sur Linux',
    ip: '203.0.113.7',
    creationDate: '2025-03-01T10:00:00.000Z',
    lastUsed: '2025-03-05T08:30:00.000Z',
    expiresAt: '2025-05-30T10:00:00.000Z',
    current: false,
    ...overrides,
  };
}

export const SERVICES = {
  services: [
    {
      id: 'p-1',
      name: 'Téléconsultation',
      description: 'Consultations vidéo',
      url: 'https://tele.example.fr',
      logoUrl: null,
      accessPolicy: 'open',
      usable: true,
      action: 'open',
    },
    {
      id: 'p-2',
      name: 'Dossier partagé',
      description: null,
      url: 'https://dossier.example.fr',
      logoUrl: null,
      accessPolicy: 'on_request',
      usable: false,
      action: 'enable',
    },
    {
      id: 'p-3',
      name: 'Imagerie',
      description: null,
      url: 'https://imagerie.example.fr',
      logoUrl: null,
      accessPolicy: 'admin',
      usable: false,
      action: 'pending',
    },
  ],
};

export const SUPPORT = {
  contact: 'Support Hygie',
  phone: '01 23 45 67 89',
  mail: 'support@hygie.example',
  website: 'https://hygie.example',
  headOffice: '1 rue de la Santé, 75014 Paris',
  usefulLinks: [{ label: 'FAQ', url: 'https://hygie.example/faq' }],
};

export const CGU = makeCguStatus({ acceptedVersion: '2025-03' });

export function makeSetting(overrides: Partial<Setting> = {}): Setting {
  return {
    key: 'PASSWORD_EXPIRATION_DELAY',
    value: 90 * 86400,
    defaultValue: 180 * 86400,
    unit: 'seconds',
    min: 86400,
    max: 3 * 365 * 86400,
    nullable: true,
    updatedAt: '2025-03-01T10:00:00.000Z',
    updatedBy: 'admin@hygie.example',
    ...overrides,
  };
}

export const SETTINGS: Setting[] = [
  makeSetting(),
  makeSetting({
    key: 'TRUSTED_DEVICE_DAYS',
    value: 90,
    defaultValue: 90,
    unit: 'days',
    min: 1,
    max: 365,
    nullable: false,
    updatedAt: null,
    updatedBy: null,
  }),
];

export function makeAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'u-2',
    name: 'Paul Martin',
    email: 'paul.martin@example.fr',
    type: 'professional',
    status: 'active',
    identifier: '10000000007',
    createdAt: '2025-02-01T10:00:00.000Z',
    platforms: [
      { platformId: 'p-1', name: 'Téléconsultation', usable: true, status: 'enabled' },
      { platformId: 'p-3', name: 'Imagerie', usable: false, status: null },
    ],
    ...overrides,
  };
}

export function userPage(items: AdminUser[], nextCursor: string | null = null) {
  return { items, pageSize: 20, nextCursor };
}

/** GET /api/admin/users/:id of an active professional with a session, a browser, a key. */
export function makeAdminUserDetail(overrides: Partial<AdminUserDetail> = {}): AdminUserDetail {
  return {
    profile: makeProfile({
      id: 'u-2',
      email: 'paul.martin@example.fr',
      firstName: 'Paul',
      lastName: 'Martin',
      profile: 'professional',
      identifierType: 'RPPS',
      identifier: '10000000007',
    }),
    roles: [],
    createdAt: '2025-02-01T10:00:00.000Z',
    lastSignInAt: '2025-03-01T08:30:00.000Z',
    passwordChangedAt: '2025-02-01T10:05:00.000Z',
    invitationPending: false,
    sessions: [
      {
        id: 's-1',
        createdAt: '2025-03-01T08:30:00.000Z',
        lastSeenAt: '2025-03-01T08:45:00.000Z',
        ip: '203.0.113.7',
        label: 'Firefox sur Linux',
        complete: true,
        methods: ['pwd', 'otp'],
      },
    ],
    trustedDevices: [
      {
        id: 'd-1',
        label: 'Firefox sur Linux',
        ip: '203.0.113.7',
        createdAt: '2025-02-01T10:05:00.000Z',
        lastUsed: '2025-03-01T08:30:00.000Z',
        expiresAt: '2025-05-02T10:05:00.000Z',
      },
    ],
    keys: [
      {
        id: 'k-1',
        kind: 'webauthn',
        deviceName: 'Clé de Paul',
        createdAt: '2025-02-03T09:00:00.000Z',
        lastUsedAt: null,
        userVerifying: true,
      },
    ],
    platforms: [{ platformId: 'p-1', name: 'Téléconsultation', usable: true, status: 'enabled' }],
    consents: [
      {
        clientId: 'imagerie',
        platform: 'Imagerie',
        scopes: ['openid', 'profile', 'health'],
        grantedAt: '2025-02-10T09:00:00.000Z',
        expiresAt: '2026-02-10T09:00:00.000Z',
      },
    ],
    events: [
      {
        id: 'e-1',
        at: '2025-03-01T08:30:00.000Z',
        action: 'login',
        actorId: 'u-2',
        targetId: 'u-2',
        ip: '203.0.113.7',
        userAgent: 'Mozilla/5.0',
        requestId: 'req-1',
        details: null,
      },
    ],
    ...overrides,
  };
}

/** GET /api/me/assurance: a session proven by a password and a code by e-mail (low). */
export const ASSURANCE = {
  level: 'low',
  amr: ['pwd', 'otp'],
  accountMinimum: null,
} as const;

/** GET /api/admin/settings/assurance: no minimum for the account area, the default mapping. */
export const ASSURANCE_SETTINGS = {
  accountMinimumLevel: null,
  mapping: { low: [['pwd', 'otp']], substantial: [['pwd', 'totp']], high: [['psc:eidas3']] },
  defaultMapping: {
    low: [['pwd', 'otp']],
    substantial: [['pwd', 'totp']],
    high: [['psc:eidas3']],
  },
};
