import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isMockDataOn, setMockData } from '../mock/flag';

/**
 * 'Use Mock Data' (spec §2.5): stores the local flag and reloads the page, which then runs against
 * the mock API in the browser (or, switched off, against the server). Signing in again follows.
 */
export function MockDataSwitch() {
  const { t } = useTranslation();
  const [on, setOn] = useState(isMockDataOn);
  const [busy, setBusy] = useState(false);
  return (
    <FormControlLabel
      label={t('mockData.switch')}
      sx={{ mx: 0, gap: 1 }}
      control={
        <Switch
          checked={on}
          disabled={busy}
          onChange={(_event, checked) => {
            setOn(checked);
            setBusy(true);
            void setMockData(checked);
          }}
        />
      }
    />
  );
}
