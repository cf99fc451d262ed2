import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/date-field';
import { IDENTIFIER_TYPES, type ProfileFieldName } from './profile-form';

const SEXES = ['female', 'male', 'unknown'] as const;
const nativeSelect = { select: { native: true }, inputLabel: { shrink: true } } as const;

/** Builds a field's props; `checked` marks the identity an admin checks at validation. */
export type FieldBuilder = (
  name: ProfileFieldName,
  id: string,
  label: string,
  options?: { required?: boolean; help?: string; checked?: boolean },
) => {
  id: string;
  label: string;
  required: boolean;
  fullWidth: boolean;
  error: boolean;
  helperText: string | undefined;
  disabled?: boolean;
};

/**
 * The person's checked identity — names, birth traits, sex — as the profile editor and the admin's
 * correction show it (ids `<idPrefix>-last-name` …).
 */
export function PersonIdentityFields({
  field,
  idPrefix,
}: {
  field: FieldBuilder;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const checked = { required: true, checked: true };
  return (
    <>
      <TextField
        {...field(
          'lastName',
          `${idPrefix}-last-name`,
          t('security:registration.lastName'),
          checked,
        )}
        autoComplete="family-name"
      />
      <TextField
        {...field('firstName', `${idPrefix}-first-name`, t('security:registration.firstName'), {
          ...checked,
          help: t('security:registration.firstNameHelp'),
        })}
        autoComplete="given-name"
      />
      <TextField
        {...field('birthName', `${idPrefix}-birth-name`, t('account:profile.birthName'), {
          checked: true,
        })}
      />
      <DateField
        {...field('birthDate', `${idPrefix}-birth-date`, t('security:registration.birthDate'), {
          ...checked,
          help: t('common:date.help'),
        })}
        autoComplete="bday"
      />
      <TextField
        {...field(
          'birthPlaceInsee',
          `${idPrefix}-birth-place`,
          t('security:registration.birthPlace'),
          { ...checked, help: t('security:registration.birthPlaceHelp') },
        )}
        slotProps={{ htmlInput: { dir: 'ltr', maxLength: 5, autoCapitalize: 'characters' } }}
      />
      <TextField
        {...field('sex', `${idPrefix}-sex`, t('security:registration.sex'), checked)}
        select
        slotProps={nativeSelect}
      >
        <option value="">{t('security:registration.choose')}</option>
        {SEXES.map((sex) => (
          <option key={sex} value={sex}>
            {t(`security:registration.sexes.${sex}`)}
          </option>
        ))}
      </TextField>
    </>
  );
}

/** A professional's identifier (type and number), checked at validation like the identity. */
export function ProfessionalIdentifierFields({
  field,
  idPrefix,
}: {
  field: FieldBuilder;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        {...field(
          'identifierType',
          `${idPrefix}-identifier-type`,
          t('security:registration.identifierType'),
          { checked: true },
        )}
        select
        slotProps={nativeSelect}
      >
        <option value="">{t('security:registration.choose')}</option>
        {IDENTIFIER_TYPES.map((kind) => (
          <option key={kind} value={kind}>
            {t(`security:registration.identifierTypes.${kind}`)}
          </option>
        ))}
      </TextField>
      <TextField
        {...field(
          'identifierValue',
          `${idPrefix}-identifier`,
          t('security:registration.identifier'),
          {
            help: t('security:registration.identifierHelp'),
            checked: true,
          },
        )}
        autoComplete="off"
        slotProps={{ htmlInput: { dir: 'ltr', maxLength: 20 } }}
      />
    </>
  );
}
