import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../../components/data-table/table-states';
import { formatDateTime } from '../../../../lib/dates';
import type { RegistrationKey } from '../../api/registration-keys';
import { useRegistrationKeys } from '../../api/registration-keys';

/** Picks one of the registration keys (GET api/apikey); their secrets are never shown again. */
export function ExistingKeySelect({ value, onPicked }: { value: string; onPicked: (key: RegistrationKey) => void }) {
  const { t } = useTranslation();
  const keys = useRegistrationKeys(true);
  if (keys.error) return <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  const list = keys.data?.keys ?? [];
  const empty = keys.data !== undefined && list.length === 0;
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={t('hosts.addDialog.existingKey')}
      value={value}
      disabled={keys.isLoading || empty}
      helperText={empty ? t('hosts.addDialog.noKeys') : t('hosts.addDialog.existingHelper')}
      onChange={(event) => {
        const picked = list.find((key) => key.uuid === event.target.value);
        if (picked) onPicked(picked);
      }}
    >
      {list.map((key) => (
        <MenuItem key={key.uuid} value={key.uuid}>
          {t('hosts.addDialog.keyOption', { description: key.description, created: formatDateTime(key.created) })}
        </MenuItem>
      ))}
    </TextField>
  );
}
