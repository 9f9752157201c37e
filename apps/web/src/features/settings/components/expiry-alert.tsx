import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { expiryNotice } from '../model/expiry';

/** Which expiry: the licence's texts or the certificate's. */
export type ExpiryKind = 'license' | 'certificate';

/** The notice text for an expiry (spec §4, §8: 'License expired', 'License expires in N days'). */
export function useExpiryText() {
  const { t } = useTranslation();
  return (kind: ExpiryKind, notice: { expired: boolean; days: number }) =>
    notice.expired ? t(`settings.notice.${kind}Expired`) : t(`settings.notice.${kind}Expires`, { days: notice.days });
}

/** The expiry warning or error shown in the licence and certificate sections; nothing above 30 days. */
export function ExpiryAlert({ kind, days }: { kind: ExpiryKind; days: number | null }) {
  const text = useExpiryText();
  const notice = expiryNotice(days);
  if (!notice) return null;
  return (
    <Alert severity={notice.severity} variant="outlined" sx={{ mb: 2 }}>
      {text(kind, notice)}
    </Alert>
  );
}
