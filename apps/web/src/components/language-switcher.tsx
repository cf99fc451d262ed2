import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LANGUAGES, type Language } from '@hygie/domain';
import { useEnvironment } from '../lib/environment';
import { currentLanguage, rememberLanguage } from '../lib/language';
import { PlainButton } from './plain/button';

/**
 * Language picker: a menu button named "Langue : Français" listing each language in itself. Plain
 * elements (app/base.css), as on the login page, where MUI is not loaded: the menu follows the
 * ARIA menu-button pattern (the current language focused on opening, arrows, Home/End, Escape
 * or Tab close it and give the focus back to the button, a click elsewhere closes it).
 */
export interface LanguageSwitcherProps {
  /**
   * The side of the button the menu lines up with: `end` (the default) for a switcher at the end of
   * a bar, `start` for one at the start of a row (the narrow main menu), so the menu stays on the
   * screen.
   */
  menuAlign?: 'start' | 'end';
}

export function LanguageSwitcher({ menuAlign = 'end' }: LanguageSwitcherProps) {
  const { texts, changeLanguage } = useEnvironment();
  const { t } = texts;
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  // The item focused when the menu opens: the current language.
  const focusOnOpen = useRef(0);
  const language = currentLanguage(texts.language);
  const languageName = t(`common:language.names.${language}`);

  useEffect(() => {
    if (!open) return;
    items.current[focusOnOpen.current]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (event.target instanceof Node && !anchor.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const choose = (next: Language) => {
    close();
    rememberLanguage(next);
    changeLanguage(next);
  };

  const move = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = items.current.findIndex((item) => item === document.activeElement);
    const last = LANGUAGES.length - 1;
    const target: Record<string, number> = {
      ArrowDown: current >= last ? 0 : current + 1,
      ArrowUp: current <= 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    const index = target[event.key];
    if (index !== undefined) {
      event.preventDefault();
      items.current[index]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      // The narrow main menu closes on Escape too: only this menu closes here.
      event.stopPropagation();
      close();
    }
  };

  return (
    <div className="hy-menu-anchor" ref={anchor}>
      <PlainButton
        ref={button}
        id={buttonId}
        data-testid="language-switcher"
        aria-label={t('common:language.label', { language: languageName })}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open ? 'true' : undefined}
        onClick={() => {
          focusOnOpen.current = LANGUAGES.indexOf(language);
          setOpen((was) => !was);
        }}
        startIcon="translate"
      >
        {languageName}
      </PlainButton>
      {open && (
        <ul
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          className={menuAlign === 'start' ? 'hy-menu hy-menu-start' : 'hy-menu'}
          onKeyDown={move}
        >
          {LANGUAGES.map((lng, index) => (
            <li key={lng} role="none">
              <button
                ref={(element) => {
                  items.current[index] = element;
                }}
                type="button"
                role="menuitem"
                tabIndex={-1}
                lang={lng}
                className="hy-menu-item"
                aria-current={lng === language ? 'true' : undefined}
                onClick={() => choose(lng)}
              >
                {t(`common:language.names.${lng}`)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
