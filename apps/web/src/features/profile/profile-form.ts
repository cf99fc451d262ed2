import { DEFAULT_COUNTRY, PROFESSIONAL_IDENTIFIER_TYPES, profileUpdateSchema } from '@hygie/domain';
import type { Profile } from '@hygie/domain';
import type { FieldErrors, Resolver } from 'react-hook-form';

/** The edit form's values: every field as typed. */
export interface ProfileFormValues {
  firstName: string;
  lastName: string;
  birthName: string;
  birthDate: string;
  birthPlaceInsee: string;
  sex: string;
  language: string;
  ins: string;
  firstNameUsed: string;
  lastNameUsed: string;
  identifierType: string;
  identifierValue: string;
  job: string;
  specialty: string;
  category: string;
  gender: string;
  parentIns: string;
  addressLine1: string;
  addressLine2: string;
  addressPostalCode: string;
  addressCity: string;
  addressCountry: string;
}

export type ProfileFieldName = keyof ProfileFormValues;

export const PROFILE_FIELDS: readonly ProfileFieldName[] = [
  'firstName',
  'lastName',
  'birthName',
  'birthDate',
  'birthPlaceInsee',
  'sex',
  'language',
  'ins',
  'firstNameUsed',
  'lastNameUsed',
  'identifierType',
  'identifierValue',
  'job',
  'specialty',
  'category',
  'gender',
  'parentIns',
  'addressLine1',
  'addressLine2',
  'addressPostalCode',
  'addressCity',
  'addressCountry',
];

/** The postal address's parts as the form fields that show them (`address.postalCode`…). */
const ADDRESS_FIELDS = {
  line1: 'addressLine1',
  line2: 'addressLine2',
  postalCode: 'addressPostalCode',
  city: 'addressCity',
  country: 'addressCountry',
} as const satisfies Record<string, ProfileFieldName>;

export const IDENTIFIER_TYPES = PROFESSIONAL_IDENTIFIER_TYPES;

export function formValuesOf(profile: Profile): ProfileFormValues {
  return {
    firstName: profile.firstName ?? '',
    lastName: profile.lastName ?? '',
    birthName: profile.birthName ?? '',
    birthDate: profile.birthDate ?? '',
    birthPlaceInsee: profile.birthPlaceInsee ?? '',
    sex: profile.sex ?? '',
    language: profile.language,
    ins: profile.ins ?? '',
    firstNameUsed: profile.firstNameUsed ?? '',
    lastNameUsed: profile.lastNameUsed ?? '',
    identifierType: profile.identifierType ?? '',
    identifierValue: profile.identifier ?? '',
    job: profile.job ?? '',
    specialty: profile.specialty ?? '',
    category: profile.category ?? '',
    gender: profile.gender ?? '',
    parentIns: profile.parentIns ?? '',
    addressLine1: profile.address?.line1 ?? '',
    addressLine2: profile.address?.line2 ?? '',
    addressPostalCode: profile.address?.postalCode ?? '',
    addressCity: profile.address?.city ?? '',
    addressCountry: profile.address?.country ?? DEFAULT_COUNTRY,
  };
}

const optional = (value: string) => (value.trim() === '' ? null : value);

/** The address typed: null when its lines, postal code and city are all blank (the country alone is no address). */
function addressOf(values: ProfileFormValues): Record<string, unknown> | null {
  const typed = [
    values.addressLine1,
    values.addressLine2,
    values.addressPostalCode,
    values.addressCity,
  ];
  if (typed.every((value) => value.trim() === '')) return null;
  return {
    line1: values.addressLine1,
    line2: optional(values.addressLine2),
    postalCode: values.addressPostalCode,
    city: values.addressCity,
    country: values.addressCountry,
  };
}

/** The PATCH body: blank optional fields are null; the extras of the user's profile type only. */
export function payloadOf(
  values: ProfileFormValues,
  type: Profile['profile'],
): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    firstName: values.firstName,
    lastName: values.lastName,
    birthName: optional(values.birthName),
    birthDate: values.birthDate,
    birthPlaceInsee: values.birthPlaceInsee,
    sex: values.sex === '' ? undefined : values.sex,
    language: values.language,
    gender: optional(values.gender),
    address: addressOf(values),
  };
  if (type === 'patient') {
    payload.ins = optional(values.ins);
    payload.parentIns = optional(values.parentIns);
    payload.firstNameUsed = optional(values.firstNameUsed);
    payload.lastNameUsed = optional(values.lastNameUsed);
  }
  if (type === 'professional') {
    payload.identifier =
      values.identifierType === '' && values.identifierValue.trim() === ''
        ? null
        : { type: values.identifierType, value: values.identifierValue };
    payload.job = optional(values.job);
    payload.specialty = optional(values.specialty);
    payload.category = optional(values.category);
  }
  return payload;
}

/** A server or schema path (`identifier.value`) as the form field that shows it. */
export function fieldOfPath(path: string): ProfileFieldName | null {
  if (path === 'identifier' || path === 'identifier.type') return 'identifierType';
  if (path === 'identifier.value') return 'identifierValue';
  if (path === 'address') return 'addressLine1';
  const part = /^address\.(\w+)$/.exec(path)?.[1];
  if (part !== undefined) {
    return Object.entries(ADDRESS_FIELDS).find(([key]) => key === part)?.[1] ?? null;
  }
  return PROFILE_FIELDS.find((field) => field === path) ?? null;
}

/** Checks the form with the domain's profileUpdateSchema (spec §5), each message on its field. */
export function profileResolver(type: Profile['profile']): Resolver<ProfileFormValues> {
  return (values) => {
    const payload = payloadOf(values, type);
    const parsed = profileUpdateSchema.safeParse(payload);
    const errors: FieldErrors<ProfileFormValues> = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = fieldOfPath(issue.path.join('.'));
      if (field && !errors[field]) errors[field] = { type: 'validation', message: issue.message };
    }
    // The schema is partial (a PATCH); the form always sends the sex.
    if (payload.sex === undefined) errors.sex = { type: 'validation', message: 'field_required' };
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors };
  };
}
