import { useMemo } from 'react';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { COUNTRY_CODES, GENDERS, PROFESSIONAL_CATEGORIES, type Profile } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import type { FieldBuilder } from './identity-fields';

// The person fields of spec §3 a person declares for themself, never checked by an admin: the
// gender they wish to be addressed by, a postal address, a professional's category.

const nativeSelect = { select: { native: true }, inputLabel: { shrink: true } } as const;

/** The countries an address may be in, by their name in `language`, sorted by it. */
function useCountries(language: string): { code: string; name: string }[] {
  return useMemo(() => {
    const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
    return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, language),
    );
  }, [language]);
}

/** How the person wishes to be addressed: not the civil-status sex. */
export function GenderField({ field, idPrefix }: { field: FieldBuilder; idPrefix: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      {...field('gender', `${idPrefix}-gender`, t('account:profile.gender'), {
        help: t('account:profile.genderHelp'),
      })}
      select
      slotProps={nativeSelect}
    >
      <option value="">{t('account:profile.notProvided')}</option>
      {GENDERS.map((gender) => (
        <option key={gender} value={gender}>
          {t(`account:profile.genders.${gender}`)}
        </option>
      ))}
    </TextField>
  );
}

/** A professional's category (ANS TRE_R09: civil, military, student). */
export function CategoryField({ field, idPrefix }: { field: FieldBuilder; idPrefix: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      {...field('category', `${idPrefix}-category`, t('account:profile.category'))}
      select
      slotProps={nativeSelect}
    >
      <option value="">{t('account:profile.notProvided')}</option>
      {PROFESSIONAL_CATEGORIES.map((category) => (
        <option key={category} value={category}>
          {t(`account:profile.categories.${category}`)}
        </option>
      ))}
    </TextField>
  );
}

/** The postal address, optional as a whole: its street, postal code and city once one is typed. */
export function AddressFields({ field, idPrefix }: { field: FieldBuilder; idPrefix: string }) {
  const { t, i18n } = useTranslation();
  const countries = useCountries(i18n.language);
  const legendId = `${idPrefix}-address-legend`;
  const helpId = `${idPrefix}-address-help`;
  return (
    <Box
      component="fieldset"
      aria-labelledby={legendId}
      aria-describedby={helpId}
      sx={{ border: 0, p: 0, m: 0, minWidth: 0, display: 'grid', gap: 2.5 }}
      data-testid={`${idPrefix}-address`}
    >
      <Typography id={legendId} component="legend" variant="subtitle1" sx={{ p: 0, mb: 0 }}>
        {t('account:profile.address')}
      </Typography>
      <Typography id={helpId} variant="body2" color="text.secondary">
        {t('account:profile.addressHelp')}
      </Typography>
      <TextField
        {...field('addressLine1', `${idPrefix}-address-line1`, t('account:profile.addressLine1'))}
        autoComplete="address-line1"
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <TextField
        {...field('addressLine2', `${idPrefix}-address-line2`, t('account:profile.addressLine2'))}
        autoComplete="address-line2"
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <TextField
        {...field(
          'addressPostalCode',
          `${idPrefix}-address-postal-code`,
          t('account:profile.postalCode'),
        )}
        autoComplete="postal-code"
        slotProps={{ htmlInput: { dir: 'ltr', maxLength: 10 } }}
      />
      <TextField
        {...field('addressCity', `${idPrefix}-address-city`, t('account:profile.city'))}
        autoComplete="address-level2"
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <TextField
        {...field('addressCountry', `${idPrefix}-address-country`, t('account:profile.country'))}
        select
        autoComplete="country"
        slotProps={nativeSelect}
      >
        {countries.map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </TextField>
    </Box>
  );
}

/** A stored postal address as its lines (the country by its name in the interface's language). */
export function AddressText({ address }: { address: NonNullable<Profile['address']> }) {
  const { i18n } = useTranslation();
  const names = new Intl.DisplayNames([i18n.language], { type: 'region', fallback: 'code' });
  const lines = [
    address.line1,
    address.line2,
    `${address.postalCode} ${address.city}`,
    names.of(address.country) ?? address.country,
  ].filter((line): line is string => Boolean(line));
  return (
    <>
      {lines.map((line, index) => (
        <Box component="span" key={index} sx={{ display: 'block' }}>
          <bdi>{line}</bdi>
        </Box>
      ))}
    </>
  );
}
