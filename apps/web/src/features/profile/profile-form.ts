import { PROFESSIONAL_IDENTIFIER_TYPES, profileUpdateSchema } from '@hygie/domain';
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
];

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
  };
}

const optional = (value: string) => (value.trim() === '' ? null : value);

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
  };
  if (type === 'patient') {
    payload.ins = optional(values.ins);
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
  }
  return payload;
}

/** A server or schema path (`identifier.value`) as the form field that shows it. */
export function fieldOfPath(path: string): ProfileFieldName | null {
  if (path === 'identifier' || path === 'identifier.type') return 'identifierType';
  if (path === 'identifier.value') return 'identifierValue';
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
