import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from './sso-form-validation';

/** What each provider's form gets from the single sign-on form. */
export interface ProviderFormProps<T> {
  value: T;
  /** The stored values: a field's error shows once it differs from them (or after Save). */
  initial: T;
  errors: FieldErrors<T>;
  /** True after Save was pressed: every error shows. */
  showAll: boolean;
  onChange: (patch: Partial<T>) => void;
  /** True when this provider is the chosen sign-in method (its essentials are required). */
  active: boolean;
}

/** Props a text field needs for one entry of a provider's form. */
export interface BoundText {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** Binds text fields to a provider's form: value, change, and the translated error when it shows. */
export function useTextBinder<T extends object>(props: ProviderFormProps<T>) {
  const { t } = useTranslation();
  return (key: keyof FieldErrors<T>): BoundText => {
    const value = props.value[key];
    const error = props.errors[key];
    const shown = error && (props.showAll || value !== props.initial[key]) ? t(error.key, error.values) : undefined;
    return {
      value: typeof value === 'string' ? value : '',
      onChange: (next: string) => props.onChange({ [key]: next } as Partial<T>),
      error: shown,
    };
  };
}

/**
 * A full-width text field for technical values (hosts, URLs, DNs): written left to right even in
 * Arabic, its error in place of its helper.
 */
export function SsoTextField(
  props: BoundText & {
    label: string;
    helper?: string;
    required?: boolean;
    placeholder?: string;
    inputMode?: 'url' | 'email';
    type?: 'email' | 'url';
    /** False for names in the reader's own language. */
    ltr?: boolean;
  },
) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      error={props.error !== undefined}
      helperText={props.error ?? props.helper}
      required={props.required}
      placeholder={props.placeholder}
      type={props.type}
      autoComplete="off"
      fullWidth
      slotProps={{
        htmlInput: { inputMode: props.inputMode, spellCheck: false, dir: props.ltr === false ? undefined : 'ltr' },
      }}
    />
  );
}

/** A full-width select over fixed options. */
export function SsoSelectField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  helper?: string;
}) {
  return (
    <TextField
      select
      label={props.label}
      value={props.value}
      onChange={(event) => {
        const chosen = props.options.find((option) => option.value === event.target.value);
        if (chosen) props.onChange(chosen.value);
      }}
      helperText={props.helper}
      fullWidth
    >
      {props.options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The heading of a group of fields, with a line that explains it. */
export function FieldGroupHeading({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {description ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
          {description}
        </Typography>
      ) : null}
    </>
  );
}
