import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of a PEM text field with a file picker. */
export interface PemFieldProps {
  label: string;
  helperText: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  /** Accessible name of the file picker button. */
  chooseLabel: string;
  maxLength: number;
}

/** A multi-line field for PEM text: paste it, or choose a file whose text fills the field. */
export function PemField(props: PemFieldProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box>
      <TextField
        label={props.label}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        error={props.error !== undefined}
        helperText={props.error ?? props.helperText}
        multiline
        minRows={4}
        maxRows={10}
        fullWidth
        slotProps={{
          htmlInput: { spellCheck: false, maxLength: props.maxLength, sx: { fontFamily: 'monospace', fontSize: 12 } },
        }}
      />
      <input
        ref={input}
        type="file"
        hidden
        accept=".pem,.crt,.cer,.key,.txt,application/x-pem-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void file.text().then(props.onChange);
        }}
      />
      <Button
        size="small"
        startIcon={<UploadFileOutlined />}
        onClick={() => input.current?.click()}
        aria-label={props.chooseLabel}
        sx={{ mt: 0.5 }}
      >
        {t('settings.certificate.chooseFile')}
      </Button>
    </Box>
  );
}
