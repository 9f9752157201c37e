import GavelOutlined from '@mui/icons-material/GavelOutlined';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { SessionRow } from '../derive';

/** A session on legal hold: a chip naming who placed it, when and why (in its tooltip). */
export function LegalHoldChip({ hold }: { hold: SessionRow['legal_hold'] | undefined }) {
  const { t } = useTranslation();
  if (!hold?.held) return null;
  const title = t('sessions.hold.chipTitle', {
    by: hold.by ?? '-',
    at: formatDateTime(hold.at),
    reason: hold.reason ?? '',
  });
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      icon={<GavelOutlined aria-hidden />}
      label={t('sessions.hold.chip')}
      title={title}
      aria-label={title}
      sx={{ ml: 1 }}
    />
  );
}
