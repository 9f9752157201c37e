import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/** One choice of a FilterSelect. */
export interface FilterOption<V extends string> {
  value: V;
  /** What the choice reads as, in the console language. */
  label: string;
  /** 'ltr' for identifiers (action names, hostnames): read left to right in every language. */
  dir?: 'ltr';
}

/** Props of FilterSelect. */
export interface FilterSelectProps<V extends string> {
  label: string;
  value: V;
  options: readonly FilterOption<V>[];
  onChange: (value: V) => void;
  disabled?: boolean;
  helperText?: ReactNode;
  sx?: SxProps<Theme>;
}

/**
 * A small select of a list's filter bar (sessions, audit). The chosen choice's words are the
 * title of what it shows: a select narrower than its words (a phone, a long Arabic label) cuts
 * them with an ellipsis, and the title holds them whole.
 */
export function FilterSelect<V extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  helperText,
  sx,
}: FilterSelectProps<V>) {
  const chosen = options.find((option) => option.value === value)?.label ?? value;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      // The select offers only the options' values.
      onChange={(event) => onChange(event.target.value as V)}
      disabled={disabled}
      helperText={helperText}
      sx={sx}
      slotProps={{ select: { SelectDisplayProps: { title: chosen } } }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value} dir={option.dir}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
