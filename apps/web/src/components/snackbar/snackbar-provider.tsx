import { SNACKBAR_HIDE_MS } from '@gatehouse/contracts';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import type { ReactNode } from 'react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SnackbarApi, SnackbarSeverity } from './snackbar-context';
import { SnackbarContext } from './snackbar-context';

interface Shown {
  key: number;
  severity: SnackbarSeverity;
  message: string;
}

/** Holds the one message on screen and hides it after 6000 ms (spec §9). */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<Shown | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback((severity: SnackbarSeverity, message: string) => {
    setShown({ key: Date.now(), severity, message });
    setOpen(true);
  }, []);
  const hide = useCallback(() => setOpen(false), []);

  const api = useMemo<SnackbarApi>(
    () => ({
      show,
      hide,
      success: (message) => show('success', message),
      warning: (message) => show('warning', message),
      error: (message) => show('error', message),
      info: (message) => show('info', message),
    }),
    [show, hide],
  );

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <Snackbar
        key={shown?.key}
        open={open && shown !== null}
        autoHideDuration={SNACKBAR_HIDE_MS}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') hide();
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          severity={shown?.severity ?? 'info'}
          variant="filled"
          onClose={hide}
          slotProps={{ closeButton: { 'aria-label': t('common.close'), title: t('common.close') } }}
          sx={{ minWidth: 280, boxShadow: 6 }}
        >
          {shown?.message}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}
