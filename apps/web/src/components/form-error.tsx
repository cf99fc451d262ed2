import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';

/** A form-level error (role alert, announced at once); renders nothing without a message. */
export function FormError({ children, action }: { children?: ReactNode; action?: ReactNode }) {
  if (!children) return null;
  return (
    <Alert severity="error" role="alert" data-testid="form-error" sx={{ mb: 3 }} action={action}>
      {children}
    </Alert>
  );
}

/** A form-level piece of news (role status, announced politely). */
export function FormStatus({
  children,
  severity = 'info',
  'data-testid': testId,
}: {
  children?: ReactNode;
  severity?: 'info' | 'success' | 'warning';
  'data-testid'?: string;
}) {
  if (!children) return null;
  return (
    <Alert severity={severity} role="status" sx={{ mb: 3 }} data-testid={testId}>
      {children}
    </Alert>
  );
}
