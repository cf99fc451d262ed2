import { useTranslation } from 'react-i18next';

/** First focusable element of a layout: jumps over the navigation to `#main-content`. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a href="#main-content" className="hy-skip-link">
      {t('common:skipToContent')}
    </a>
  );
}
