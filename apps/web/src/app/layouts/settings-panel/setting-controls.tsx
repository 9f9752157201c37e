import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId } from 'react';

/** A titled block of the panel; its title names the controls inside. */
export function SettingSection({ title, children }: { title: string; children: (titleId: string) => ReactNode }) {
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography id={titleId} component="h3" variant="overline" sx={{ color: 'text.secondary', lineHeight: 1.8 }}>
        {title}
      </Typography>
      {children(titleId)}
    </Box>
  );
}

/** One choice among a few, as pressed buttons in a row, the group named by `labelledBy`. */
export function ToggleChoice<T extends string>(props: {
  labelledBy: string;
  options: readonly T[];
  value: T;
  label: (option: T) => string;
  onChange: (value: T) => void;
}) {
  return (
    <ToggleButtonGroup
      exclusive
      fullWidth
      size="small"
      color="primary"
      aria-labelledby={props.labelledBy}
      value={props.value}
      onChange={(_, value: T | null) => {
        // A second press on the chosen button would clear it; a choice always stays made.
        if (value !== null) props.onChange(value);
      }}
    >
      {props.options.map((option) => (
        <ToggleButton key={option} value={option} data-value={option}>
          {props.label(option)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

/** One choice among many, as a radio group (arrow keys move the choice), named by `labelledBy`. */
export function RadioChoice<T extends string>(props: {
  labelledBy: string;
  name: string;
  options: readonly T[];
  value: T;
  label: (option: T) => string;
  onChange: (value: T) => void;
  columns?: 1 | 2;
}) {
  return (
    <RadioGroup
      aria-labelledby={props.labelledBy}
      name={props.name}
      value={props.value}
      onChange={(event) => {
        const chosen = props.options.find((option) => option === event.target.value);
        if (chosen !== undefined) props.onChange(chosen);
      }}
      sx={{ display: 'grid', gridTemplateColumns: props.columns === 2 ? '1fr 1fr' : '1fr', columnGap: 1 }}
    >
      {props.options.map((option) => (
        <FormControlLabel
          key={option}
          value={option}
          control={<Radio size="small" />}
          label={props.label(option)}
          slotProps={{ typography: { variant: 'body2' } }}
        />
      ))}
    </RadioGroup>
  );
}
