import { useTranslation } from 'react-i18next';

export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <main id="main-content" tabIndex={-1} className="hy-loading">
      <div role="status">
        <span className="hy-spinner" aria-hidden="true" />
        <span>{t('common:loading')}</span>
      </div>
    </main>
  );
}
