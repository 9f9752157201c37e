import type { ResponseOf, Routes } from '@gatehouse/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegistrationKey } from '../../api/registration-keys';
import { ExistingKeySelect } from './existing-key-select';
import { GenerateKeyForm } from './generate-key-form';

/** The answer to generating a key, with its secret `key`, this once. */
export type GeneratedKey = ResponseOf<Routes['createApiKey']>;

/** The key the new host registers with. */
export type ChosenKey = { kind: 'generated'; key: GeneratedKey } | { kind: 'existing'; key: RegistrationKey };

/**
 * Generate a key here or pick an existing one (administrators only). Once a key is generated the
 * choice is locked, so its secret stays on screen until the dialog closes.
 */
export function KeyChooser({ chosen, onChosen }: { chosen: ChosenKey | null; onChosen: (key: ChosenKey) => void }) {
  const { t } = useTranslation();
  const labelId = useId();
  const [mode, setMode] = useState<'generate' | 'existing'>('generate');
  if (chosen?.kind === 'generated') {
    return (
      <Alert severity="success" variant="outlined">
        {t('hosts.addDialog.generated', { description: chosen.key.description })}
      </Alert>
    );
  }
  return (
    <Box>
      <Typography id={labelId} variant="h4" component="h3" sx={{ mb: 0.5 }}>
        {t('hosts.addDialog.keyTitle')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('hosts.addDialog.keyText')}
      </Typography>
      <RadioGroup
        aria-labelledby={labelId}
        row
        value={mode}
        onChange={(event) => setMode(event.target.value === 'existing' ? 'existing' : 'generate')}
      >
        <FormControlLabel value="generate" control={<Radio />} label={t('hosts.addDialog.modeGenerate')} />
        <FormControlLabel value="existing" control={<Radio />} label={t('hosts.addDialog.modeExisting')} />
      </RadioGroup>
      <Box sx={{ mt: 1.5 }}>
        {mode === 'generate' ? (
          <GenerateKeyForm onGenerated={(key) => onChosen({ kind: 'generated', key })} />
        ) : (
          <ExistingKeySelect
            value={chosen?.kind === 'existing' ? chosen.key.uuid : ''}
            onPicked={(key) => onChosen({ kind: 'existing', key })}
          />
        )}
      </Box>
    </Box>
  );
}
