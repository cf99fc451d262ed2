import { useEffect, useRef, type ReactNode } from 'react';
import Typography from '@mui/material/Typography';

export interface StepHeadingProps {
  children: ReactNode;
  /** Moves the focus to the heading when shown (a later step replacing the previous one). */
  focusOnMount?: boolean;
}

/** The h2 of one step of a multi-step screen; takes the focus when a new step appears. */
export function StepHeading({ children, focusOnMount = false }: StepHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <Typography ref={ref} component="h2" variant="h6" tabIndex={-1} sx={{ mb: 2, outline: 'none' }}>
      {children}
    </Typography>
  );
}
