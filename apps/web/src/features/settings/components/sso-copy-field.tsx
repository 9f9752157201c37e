import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';

/**
 * An address to register at the identity provider: read-only, copyable, and optionally opened in
 * a new tab. The group is named by the label, so each Copy button says what it copies.
 */
export function SsoCopyField(props: { label: string; value: string; helper?: string; openable?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box
      role="group"
      aria-label={props.label}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
    >
      <TextField
        label={props.label}
        value={props.value}
        helperText={props.helper}
        fullWidth
        size="small"
        slotProps={{
          input: { readOnly: true },
          htmlInput: { dir: 'ltr', spellCheck: false, sx: { fontFamily: 'monospace', fontSize: 13 } },
        }}
        sx={{ flex: '1 1 260px', minWidth: 0 }}
      />
      <Box sx={{ display: 'flex', gap: 1, flexShrink: 0 }}>
        <CopyButton text={props.value} />
        {props.openable ? (
          <Button
            variant="outlined"
            href={props.value}
            target="_blank"
            rel="noopener noreferrer"
            startIcon={<OpenInNew />}
            aria-label={t('settings.sso.openNamed', { name: props.label })}
          >
            {t('settings.sso.open')}
          </Button>
        ) : null}
      </Box>
    </Box>
  );
}
