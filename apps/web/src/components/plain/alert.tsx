import type { HTMLAttributes, ReactNode } from 'react';
import { Icon } from './icons';

export interface PlainAlertProps extends HTMLAttributes<HTMLDivElement> {
  severity: 'error' | 'info' | 'success' | 'warning';
  children: ReactNode;
}

/** A message box of the first screens (MUI Alert's look and `alert` role by default). */
export function PlainAlert({
  severity,
  role = 'alert',
  className,
  children,
  ...rest
}: PlainAlertProps) {
  return (
    <div
      {...rest}
      role={role}
      className={['hy-alert', `hy-alert-${severity}`, className].filter(Boolean).join(' ')}
    >
      <div className="hy-alert-icon">
        <Icon name={severity} />
      </div>
      <div className="hy-alert-message">{children}</div>
    </div>
  );
}

/** A line across, with a word in its middle or not. */
export function PlainDivider({
  children,
  className,
}: {
  children?: ReactNode;
  className?: string;
}) {
  if (!children) return <hr className={['hy-divider', className].filter(Boolean).join(' ')} />;
  return (
    <div role="separator" className={['hy-divider-text', className].filter(Boolean).join(' ')}>
      <span>{children}</span>
    </div>
  );
}
