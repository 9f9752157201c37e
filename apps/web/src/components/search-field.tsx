import SearchOutlined from '@mui/icons-material/SearchOutlined';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { TextFieldProps } from '@mui/material/TextField';

/** Props of SearchField: a TextField's, with the typed text handed to onChange. */
export type SearchFieldProps = Omit<TextFieldProps, 'onChange' | 'type' | 'size' | 'value'> & {
  value: string;
  onChange: (text: string) => void;
};

/** The search box of a list (users, sessions, audit, logs): a small search field with a magnifier. */
export function SearchField({ value, onChange, slotProps, ...rest }: SearchFieldProps) {
  return (
    <TextField
      type="search"
      size="small"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      {...rest}
      slotProps={{
        ...slotProps,
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchOutlined fontSize="small" aria-hidden />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
