import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { useId } from 'react';

/** A labelled switch with a helper line that describes it. */
export function SwitchField(props: {
  label: string;
  helper: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const helpId = useId();
  return (
    <>
      <FormControlLabel
        control={
          <Switch
            checked={props.checked}
            onChange={(event) => props.onChange(event.target.checked)}
            disabled={props.disabled}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
        label={props.label}
      />
      <FormHelperText id={helpId} sx={{ mx: 0, mt: 0 }}>
        {props.helper}
      </FormHelperText>
    </>
  );
}
