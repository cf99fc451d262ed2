import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Icon, type IconName } from './icons';

export interface PlainButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'text' | 'outlined' | 'contained';
  size?: 'medium' | 'large';
  color?: 'primary' | 'inherit';
  fullWidth?: boolean;
  /** Waiting for the answer: disabled, a spinner over the label (which still names it). */
  loading?: boolean;
  startIcon?: IconName;
  ref?: Ref<HTMLButtonElement>;
  children: ReactNode;
}

/** Class names of a button look (MUI Button's), for a button or a link. */
export function buttonClasses({
  variant = 'text',
  size = 'medium',
  color = 'primary',
  fullWidth = false,
}: Pick<PlainButtonProps, 'variant' | 'size' | 'color' | 'fullWidth'>): string {
  return [
    'hy-button',
    variant !== 'text' && `hy-button-${variant}`,
    size === 'large' && 'hy-button-large',
    color === 'inherit' && 'hy-button-inherit',
    fullWidth && 'hy-button-full',
  ]
    .filter(Boolean)
    .join(' ');
}

/** A button of the first screens, drawn without MUI (app/base.css). */
export function PlainButton({
  variant,
  size,
  color,
  fullWidth,
  loading = false,
  startIcon,
  children,
  type = 'button',
  disabled,
  ...rest
}: PlainButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={buttonClasses({ variant, size, color, fullWidth })}
      disabled={disabled || loading}
      aria-busy={loading ? 'true' : undefined}
    >
      {startIcon && (
        <span className="hy-button-icon">
          <Icon name={startIcon} />
        </span>
      )}
      <span className="hy-button-label">{children}</span>
      {loading && <span className="hy-spinner" aria-hidden="true" />}
    </button>
  );
}
