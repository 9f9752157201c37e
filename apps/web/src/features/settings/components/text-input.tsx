import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';

/** A full-width text field showing its error in place of its helper, with an optional unit at the end. */
export function TextInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  helper?: string;
  unit?: string;
  multiline?: boolean;
  inputMode?: 'numeric' | 'url';
  autoComplete?: string;
}) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      error={props.error !== undefined}
      helperText={props.error ?? props.helper}
      multiline={props.multiline}
      minRows={props.multiline ? 2 : undefined}
      maxRows={props.multiline ? 6 : undefined}
      autoComplete={props.autoComplete}
      fullWidth
      slotProps={{
        htmlInput: { inputMode: props.inputMode },
        input: props.unit ? { endAdornment: <InputAdornment position="end">{props.unit}</InputAdornment> } : {},
      }}
    />
  );
}
