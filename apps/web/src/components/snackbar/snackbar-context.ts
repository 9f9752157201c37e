import { createContext, useContext } from 'react';

/** Variants of the global message view (spec §2.5, §4). */
export type SnackbarSeverity = 'success' | 'warning' | 'error' | 'info';

/** Shows a message; a new message replaces the one on screen (spec §4 global status). */
export interface SnackbarApi {
  show: (severity: SnackbarSeverity, message: string) => void;
  success: (message: string) => void;
  warning: (message: string) => void;
  error: (message: string) => void;
  info: (message: string) => void;
  hide: () => void;
}

/** The context the SnackbarProvider fills. */
export const SnackbarContext = createContext<SnackbarApi | null>(null);

/** The global snackbar; must be used under SnackbarProvider. */
export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error('useSnackbar must be used inside SnackbarProvider');
  return api;
}
