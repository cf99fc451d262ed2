import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type FieldPath, type Resolver } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  isOneOf,
  patientRegistrationSchema,
  PROFESSIONAL_IDENTIFIER_TYPES,
  professionalRegistrationSchema,
  type ProfileType,
} from '@hygie/domain';
import { DateField } from '../../components/date-field';
import { FormError } from '../../components/form-error';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Page } from '../../components/page';
import { PhoneField } from '../../components/phone-field';
import { ApiError } from '../../lib/api-client';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { withFlowParams } from '../../lib/flow-params';
import { applyServerErrors, PASSWORD_CODE_FIELDS } from '../../lib/form-errors';
import { voidHandler } from '../../lib/handlers';
import { validationMessage } from '../../lib/validation-message';
import { CGU_QUERY_KEY, useCguStatus } from '../consent/api/get-cgu';
import { usePendingIdentity, type PendingIdentity } from './api/pending-identity';
import { useRegister } from './api/register';

/** What the form holds: every field as typed ('' when empty). */
export interface RegistrationFormValues {
  type: ProfileType;
  email: string;
  password: string;
  passwordConfirmation: string;
  acceptCgu: boolean;
  /** The terms shown (GET /api/cgu): what the ticked box accepts, sent as is. */
  cguVersion: string;
  cguHash: string;
  lastName: string;
  firstName: string;
  birthName: string;
  birthDate: string;
  birthPlaceInsee: string;
  sex: string;
  phone: string;
  // Patient.
  socialSecurityNumber: string;
  firstNameUsed: string;
  lastNameUsed: string;
  // Professional.
  identifier: { type: string; value: string };
  job: string;
  specialty: string;
  /** The provider whose pending identity is registered ('' for none). */
  fromIdentityProvider: string;
}

type FieldName = FieldPath<RegistrationFormValues>;

const EMPTY: RegistrationFormValues = {
  type: 'patient',
  email: '',
  password: '',
  passwordConfirmation: '',
  acceptCgu: false,
  cguVersion: '',
  cguHash: '',
  lastName: '',
  firstName: '',
  birthName: '',
  birthDate: '',
  birthPlaceInsee: '',
  sex: '',
  phone: '',
  socialSecurityNumber: '',
  firstNameUsed: '',
  lastNameUsed: '',
  identifier: { type: '', value: '' },
  job: '',
  specialty: '',
  fromIdentityProvider: '',
};

/** Empty (or blank) texts are absent values: optional fields are left out, required ones say so. */
function blankToUndefined(value: unknown): unknown {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, blankToUndefined(inner)]),
    );
  }
  return value;
}

/** The domain's registration schemas, read from the form's values. */
const SCHEMAS = {
  patient: z.preprocess(
    (values: RegistrationFormValues) => blankToUndefined(values),
    patientRegistrationSchema,
  ),
  professional: z.preprocess(
    (values: RegistrationFormValues) => blankToUndefined(values),
    professionalRegistrationSchema,
  ),
};

/** What the form submits: the values as the domain's schema parsed them. */
type RegistrationValues = z.output<(typeof SCHEMAS)[ProfileType]>;

/**
 * The schema's resolver, plus "passwords must match" as soon as both are typed (the schema's
 * object-level check only runs once every field parses).
 */
function registrationResolver(
  type: ProfileType,
): Resolver<RegistrationFormValues, unknown, RegistrationValues> {
  const base = zodResolver(SCHEMAS[type]);
  return async (values, context, options) => {
    const result = await base(values, context, options);
    const mismatch =
      values.passwordConfirmation !== '' && values.password !== values.passwordConfirmation;
    if (!mismatch || result.errors.passwordConfirmation) return result;
    return {
      values: {},
      errors: {
        ...result.errors,
        passwordConfirmation: { type: 'custom', message: 'passwords_must_match' },
      },
    };
  };
}

const RESOLVERS = {
  patient: registrationResolver('patient'),
  professional: registrationResolver('professional'),
};

const FIELDS: readonly FieldName[] = [
  'email',
  'password',
  'passwordConfirmation',
  'acceptCgu',
  'lastName',
  'firstName',
  'birthName',
  'birthDate',
  'birthPlaceInsee',
  'sex',
  'phone',
  'socialSecurityNumber',
  'firstNameUsed',
  'lastNameUsed',
  'identifier.type',
  'identifier.value',
  'job',
  'specialty',
];

const SEXES = ['female', 'male', 'unknown'] as const;

/** The known providers, named in the notes (another is named by its id). */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  psc: 'Pro Santé Connect',
  franceconnect: 'FranceConnect',
};

/** The form's fields a provider may assert, and the asserted value each one takes. */
function assertedValues(asserted: PendingIdentity['asserted']): Partial<Record<FieldName, string>> {
  const values: Partial<Record<FieldName, string>> = {};
  const set = (name: FieldName, value: string | null) => {
    if (value !== null) values[name] = value;
  };
  set('lastName', asserted.lastName);
  set('firstName', asserted.firstName);
  set('birthName', asserted.birthName);
  set('lastNameUsed', asserted.lastNameUsed ?? null);
  set('birthDate', asserted.birthDate);
  set('birthPlaceInsee', asserted.birthPlaceInsee);
  set('sex', asserted.sex);
  set('identifier.type', asserted.identifier?.type ?? null);
  set('identifier.value', asserted.identifier?.value ?? null);
  set('job', asserted.job);
  return values;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box
      component="fieldset"
      aria-labelledby={id}
      sx={{ border: 0, p: 0, m: 0, minWidth: 0, display: 'grid', gap: 2.5 }}
    >
      <Typography id={id} component="legend" variant="h6" sx={{ p: 0, mb: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The sign-up form of a patient or a health professional (POST /api/register). */
export function RegistrationForm({ type }: { type: ProfileType }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  // From the login page's link mode: pre-filled with what the provider asserted.
  const idp = new URLSearchParams(search).get('idp');
  const pending = usePendingIdentity(idp);
  const identity =
    pending.data && pending.data.provider === idp && pending.data.profile === type
      ? pending.data
      : null;
  const fromProvider = identity ? assertedValues(identity.asserted) : {};
  const providerName = identity ? (PROVIDER_NAMES[identity.provider] ?? identity.provider) : '';
  const signUp = useRegister();
  const queryClient = useQueryClient();
  const terms = useCguStatus();
  const [failure, setFailure] = useState<unknown>(null);
  const { register, control, handleSubmit, setError, setValue, getFieldState, formState } = useForm<
    RegistrationFormValues,
    unknown,
    RegistrationValues
  >({
    resolver: RESOLVERS[type],
    defaultValues: { ...EMPTY, type },
  });
  const professional = type === 'professional';
  const shown = terms.data;

  // The box accepts the text shown: its version and hash go with the form (a newer text, or
  // the text in another language, replaces them).
  useEffect(() => {
    if (!shown) return;
    setValue('cguVersion', shown.version);
    setValue('cguHash', shown.hash);
  }, [shown, setValue]);

  // The asserted values go with the form; the server takes them from the provider anyway.
  useEffect(() => {
    if (!identity) return;
    for (const [name, value] of Object.entries(assertedValues(identity.asserted))) {
      if (isOneOf(FIELDS, name)) setValue(name, value);
    }
    setValue('fromIdentityProvider', identity.provider);
  }, [identity, setValue]);

  /**
   * A field the provider asserted: shown read-only with its origin (or its error, e.g. an
   * identifier already an account's); null when the field is the person's to type.
   */
  const asserted = (name: FieldName, id: string, labelKey: string, display?: string) => {
    const value = fromProvider[name];
    if (value === undefined) return null;
    const message = getFieldState(name, formState).error?.message;
    return (
      <TextField
        id={id}
        label={t(labelKey)}
        value={display ?? value}
        required
        fullWidth
        error={!!message}
        helperText={
          validationMessage(i18n, message) ??
          t('security:registration.fromProvider.field', { name: providerName })
        }
        slotProps={{ htmlInput: { readOnly: true, 'data-asserted': 'true' } }}
      />
    );
  };

  /** Props of a text field bound to `name`, with its translated error. */
  const field = (
    name: FieldName,
    id: string,
    labelKey: string,
    options: { required?: boolean; help?: string } = {},
  ): TextFieldProps => {
    const { ref, ...bound } = register(name);
    const message = getFieldState(name, formState).error;
    return {
      ...bound,
      inputRef: ref,
      id,
      label: t(labelKey),
      required: options.required ?? true,
      fullWidth: true,
      error: !!message?.message,
      helperText: validationMessage(i18n, message?.message) ?? options.help,
    };
  };

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    signUp.mutate(values, {
      onSuccess: (result) => {
        void navigate(
          withFlowParams('/security/register/success', search, {
            profile: type,
            // Validated by the provider (Pro Santé Connect asserted the RPPS): no wait to announce.
            ...(type === 'professional' && result.status === 'active' ? { validated: '1' } : {}),
          }),
        );
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'terms_changed') {
          // Published while the form was open: show the new text, to be read and ticked again.
          setValue('acceptCgu', false);
          void queryClient.invalidateQueries({ queryKey: CGU_QUERY_KEY });
          setFailure(error);
          return;
        }
        const codes: Readonly<Record<string, FieldName>> = {
          ...PASSWORD_CODE_FIELDS,
          email_already_used: 'email',
        };
        if (!applyServerErrors(error, setError, FIELDS, codes)) setFailure(error);
      },
    });
  });

  return (
    <Page
      title={t(
        professional ? 'security:registerProfessional.title' : 'security:registerPatient.title',
      )}
    >
      <Typography sx={{ mb: 1 }}>
        {t(
          professional
            ? 'security:registerProfessional.description'
            : 'security:registerPatient.description',
        )}
      </Typography>
      <Typography variant="body2" sx={{ mb: 3, color: 'text.secondary' }}>
        {t('security:registration.requiredNote')}
      </Typography>
      {identity && (
        <Alert severity="info" sx={{ mb: 3 }} data-testid="register-from-provider">
          {t('security:registration.fromProvider.note', { name: providerName })}
        </Alert>
      )}
      <FormError>{failure ? errorMessage(i18n, failure) : null}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="page-title"
        sx={{ display: 'grid', gap: 4 }}
      >
        <Section id="register-section-account" title={t('security:registration.account')}>
          <TextField
            {...field('email', 'register-email', 'security:registration.email')}
            type="email"
            autoComplete="email"
            slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false, maxLength: 180 } }}
          />
          <NewPasswordFields
            idPrefix="register"
            variant="password"
            password={register('password')}
            confirmation={register('passwordConfirmation')}
            passwordError={formState.errors.password?.message}
            confirmationError={formState.errors.passwordConfirmation?.message}
          />
        </Section>

        <Section id="register-section-identity" title={t('security:registration.identity')}>
          {asserted('lastName', 'register-last-name', 'security:registration.lastName') ?? (
            <TextField
              {...field('lastName', 'register-last-name', 'security:registration.lastName')}
              autoComplete="family-name"
            />
          )}
          {asserted('firstName', 'register-first-name', 'security:registration.firstName') ?? (
            <TextField
              {...field('firstName', 'register-first-name', 'security:registration.firstName', {
                help: t('security:registration.firstNameHelp'),
              })}
              autoComplete="given-name"
            />
          )}
          {asserted('birthName', 'register-birth-name', 'security:registration.birthName') ?? (
            <TextField
              {...field('birthName', 'register-birth-name', 'security:registration.birthName', {
                required: false,
              })}
              autoComplete="off"
            />
          )}
          {!professional && (
            <>
              {asserted(
                'lastNameUsed',
                'register-last-name-used',
                'security:registration.lastNameUsed',
              ) ?? (
                <TextField
                  {...field(
                    'lastNameUsed',
                    'register-last-name-used',
                    'security:registration.lastNameUsed',
                    { required: false },
                  )}
                  autoComplete="off"
                />
              )}
              <TextField
                {...field(
                  'firstNameUsed',
                  'register-first-name-used',
                  'security:registration.firstNameUsed',
                  { required: false },
                )}
                autoComplete="off"
              />
            </>
          )}
          {asserted('birthDate', 'register-birth-date', 'security:registration.birthDate') ?? (
            <DateField
              {...field('birthDate', 'register-birth-date', 'security:registration.birthDate')}
              autoComplete="bday"
            />
          )}
          {asserted(
            'birthPlaceInsee',
            'register-birth-place',
            'security:registration.birthPlace',
          ) ?? (
            <TextField
              {...field(
                'birthPlaceInsee',
                'register-birth-place',
                'security:registration.birthPlace',
                { help: t('security:registration.birthPlaceHelp') },
              )}
              autoComplete="off"
              slotProps={{ htmlInput: { dir: 'ltr', maxLength: 5, autoCapitalize: 'characters' } }}
            />
          )}
          {asserted(
            'sex',
            'register-sex',
            'security:registration.sex',
            identity?.asserted.sex
              ? t(`security:registration.sexes.${identity.asserted.sex}`)
              : undefined,
          ) ?? (
            <TextField
              {...field('sex', 'register-sex', 'security:registration.sex')}
              select
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">{t('security:registration.choose')}</option>
              {SEXES.map((sex) => (
                <option key={sex} value={sex}>
                  {t(`security:registration.sexes.${sex}`)}
                </option>
              ))}
            </TextField>
          )}
          {!professional && (
            <TextField
              {...field(
                'socialSecurityNumber',
                'register-ssn',
                'security:registration.socialSecurityNumber',
                { required: false, help: t('security:registration.socialSecurityNumberHelp') },
              )}
              autoComplete="off"
              slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'numeric', maxLength: 21 } }}
            />
          )}
        </Section>

        {professional && (
          <Section id="register-section-profession" title={t('security:registration.profession')}>
            {asserted(
              'identifier.type',
              'register-identifier-type',
              'security:registration.identifierType',
              identity?.asserted.identifier
                ? t(`security:registration.identifierTypes.${identity.asserted.identifier.type}`)
                : undefined,
            ) ?? (
              <TextField
                {...field(
                  'identifier.type',
                  'register-identifier-type',
                  'security:registration.identifierType',
                )}
                select
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              >
                <option value="">{t('security:registration.choose')}</option>
                {PROFESSIONAL_IDENTIFIER_TYPES.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`security:registration.identifierTypes.${kind}`)}
                  </option>
                ))}
              </TextField>
            )}
            {asserted(
              'identifier.value',
              'register-identifier',
              'security:registration.identifier',
            ) ?? (
              <TextField
                {...field(
                  'identifier.value',
                  'register-identifier',
                  'security:registration.identifier',
                  { help: t('security:registration.identifierHelp') },
                )}
                autoComplete="off"
                slotProps={{ htmlInput: { dir: 'ltr', maxLength: 20 } }}
              />
            )}
            {asserted('job', 'register-job', 'security:registration.job') ?? (
              <TextField
                {...field('job', 'register-job', 'security:registration.job', {
                  help: t('security:registration.jobHelp'),
                })}
                autoComplete="organization-title"
                slotProps={{ htmlInput: { maxLength: 100 } }}
              />
            )}
            <TextField
              {...field('specialty', 'register-specialty', 'security:registration.specialty', {
                required: false,
              })}
              autoComplete="off"
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
          </Section>
        )}

        <Section id="register-section-contact" title={t('security:registration.contact')}>
          <PhoneField
            {...field('phone', 'register-phone', 'security:registration.phone', {
              help: t('security:registration.phoneHelp'),
            })}
          />
        </Section>

        <Controller
          name="acceptCgu"
          control={control}
          render={({ field: cgu, fieldState }) => (
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    id="register-cgu"
                    checked={cgu.value}
                    onChange={(_event, checked) => cgu.onChange(checked)}
                    onBlur={cgu.onBlur}
                    required
                    slotProps={{
                      input: {
                        ref: cgu.ref,
                        'aria-invalid': fieldState.error ? true : undefined,
                        'aria-describedby':
                          [
                            shown ? 'register-cgu-version' : '',
                            fieldState.error ? 'register-cgu-error' : '',
                          ]
                            .filter(Boolean)
                            .join(' ') || undefined,
                      },
                    }}
                  />
                }
                label={
                  <Trans
                    i18nKey="security:registration.acceptCgu"
                    components={{
                      terms: (
                        <Link
                          href={
                            shown
                              ? `/security/accept-cgu?version=${encodeURIComponent(shown.version)}`
                              : '/security/accept-cgu'
                          }
                          target="_blank"
                          rel="noopener"
                        />
                      ),
                    }}
                  />
                }
              />
              {shown && (
                <FormHelperText id="register-cgu-version" sx={{ mx: 0 }}>
                  {t('security:registration.termsVersion', {
                    version: isolate(shown.version),
                    date: formatLongDate(shown.publishedAt, i18n.language),
                  })}
                </FormHelperText>
              )}
              {terms.isError && (
                <FormHelperText error sx={{ mx: 0 }}>
                  {errorMessage(i18n, terms.error)}
                </FormHelperText>
              )}
              {fieldState.error && (
                <FormHelperText id="register-cgu-error" error sx={{ mx: 0 }}>
                  {validationMessage(i18n, fieldState.error.message)}
                </FormHelperText>
              )}
            </Box>
          )}
        />

        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={signUp.isPending}
          data-testid="register-submit"
        >
          {t('security:registration.submit')}
        </Button>
      </Box>
    </Page>
  );
}
