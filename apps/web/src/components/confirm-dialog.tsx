import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  open: boolean;
  /** Translated texts. */
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** Defaults to "Cancel". */
  cancelLabel?: string;
  /** Red confirm button for a destructive action. */
  destructive?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The one confirmation dialog of the app (`confirm-dialog`, `confirm-yes`, `confirm-no`). MUI
 * traps the focus inside and gives it back to the opener on close; "No" has the focus first.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  destructive = false,
  pending = false,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!pending) onClose();
      }}
      aria-labelledby={`${id}-title`}
      aria-describedby={children ? `${id}-text` : undefined}
      data-testid="confirm-dialog"
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      {children && (
        <DialogContent>
          <DialogContentText id={`${id}-text`} component="div">
            {children}
          </DialogContentText>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose} disabled={pending} autoFocus data-testid="confirm-no">
          {cancelLabel ?? t('common:actions.cancel')}
        </Button>
        <Button
          onClick={onConfirm}
          loading={pending}
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          data-testid="confirm-yes"
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
