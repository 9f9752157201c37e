import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { AuditRow } from '../api/list-audit';

const COLOR = { success: 'success', failure: 'warning', denied: 'error' } as const;

/** An entry's outcome in words and colour (the word carries it: colour is never alone). */
export function OutcomeChip({ outcome }: { outcome: AuditRow['outcome'] }) {
  const { t } = useTranslation();
  return <Chip size="small" variant="outlined" color={COLOR[outcome]} label={t(`audit.outcome.${outcome}`)} />;
}
