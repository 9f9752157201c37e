import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../lib/api-error';

/** Texts to show for particular statuses, such as the spec's exact duplicate messages for 409. */
export type TextsByStatus = Partial<Record<number, string>>;

/**
 * The text to show for a failed call: the one given for its status, else the server's message
 * (a 403 explains which permission is missing), else the translated 'something went wrong'.
 */
export function useErrorText(): (error: unknown, byStatus?: TextsByStatus) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown, byStatus?: TextsByStatus) => {
      const special = error instanceof ApiError ? byStatus?.[error.status] : undefined;
      return special ?? errorText(error, t('message.somethingWentWrong'));
    },
    [t],
  );
}
