import { useTexts } from '../lib/environment';

/** First focusable element of a layout: jumps over the navigation to `#main-content`. */
export function SkipLink() {
  const { t } = useTexts();
  return (
    <a href="#main-content" className="hy-skip-link">
      {t('common:skipToContent')}
    </a>
  );
}
