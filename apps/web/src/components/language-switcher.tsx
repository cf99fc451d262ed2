import { useId, useState, type MouseEvent } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TranslateIcon from '@mui/icons-material/Translate';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@hygie/domain';
import { currentLanguage, rememberLanguage } from '../lib/language';

export interface LanguageSwitcherProps {
  /** 'inherit' on coloured bars, 'primary' on light backgrounds. */
  color?: 'inherit' | 'primary';
}

/** Language picker: a menu button named "Langue : Français" listing each language in itself. */
export function LanguageSwitcher({ color = 'primary' }: LanguageSwitcherProps) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const language = currentLanguage(i18n.language);
  const languageName = t(`common:language.names.${language}`);

  const choose = (next: Language) => {
    setAnchor(null);
    rememberLanguage(next);
    void i18n.changeLanguage(next);
  };

  return (
    <>
      <Button
        id={buttonId}
        color={color}
        data-testid="language-switcher"
        aria-label={t('common:language.label', { language: languageName })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        startIcon={<TranslateIcon aria-hidden="true" />}
      >
        {languageName}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        {LANGUAGES.map((lng) => (
          <MenuItem
            key={lng}
            lang={lng}
            selected={lng === language}
            aria-current={lng === language ? 'true' : undefined}
            onClick={() => choose(lng)}
          >
            {t(`common:language.names.${lng}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
