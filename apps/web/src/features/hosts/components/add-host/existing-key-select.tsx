import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../../components/data-table/table-states';
import { keyStatus } from '../../../../components/key-limits/key-limits';
import { formatDateTime } from '../../../../lib/dates';
import { useNow } from '../../../../lib/use-now';
import type { RegistrationKey } from '../../api/registration-keys';
import { useRegistrationKeys } from '../../api/registration-keys';

/**
 * Picks one of the registration keys (GET api/apikey); their secrets are never shown again.
 * Expired and used-up keys are listed, marked, but cannot be picked: they enrol no agent.
 */
export function ExistingKeySelect({ value, onPicked }: { value: string; onPicked: (key: RegistrationKey) => void }) {
  const { t } = useTranslation();
  const keys = useRegistrationKeys(true);
  const now = useNow(60_000);
  if (keys.error) return <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  const list = keys.data?.keys ?? [];
  const usable = list.filter((key) => keyStatus(key, now) === 'usable');
  const empty = keys.data !== undefined && usable.length === 0;
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={t('hosts.addDialog.existingKey')}
      value={value}
      disabled={keys.isLoading || empty}
      helperText={
        empty
          ? t(list.length === 0 ? 'hosts.addDialog.noKeys' : 'hosts.addDialog.noUsableKeys')
          : t('hosts.addDialog.existingHelper')
      }
      onChange={(event) => {
        const picked = usable.find((key) => key.uuid === event.target.value);
        if (picked) onPicked(picked);
      }}
    >
      {list.map((key) => {
        const status = keyStatus(key, now);
        return (
          <MenuItem key={key.uuid} value={key.uuid} disabled={status !== 'usable'}>
            {status === 'usable'
              ? t('hosts.addDialog.keyOption', {
                  description: key.description,
                  left: key.uses_left,
                  uses: key.uses,
                  date: formatDateTime(key.expires_at),
                })
              : t('hosts.addDialog.keyOptionUnusable', {
                  description: key.description,
                  status: t(status === 'expired' ? 'keyLimits.status.expired' : 'keyLimits.status.usedUp'),
                })}
          </MenuItem>
        );
      })}
    </TextField>
  );
}
