import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { permissionArea, sortByArea } from './permission-areas';

/** Props of the permission multi-select. */
export interface PermissionSelectProps {
  label: string;
  /** The permissions offered (from GET api/permission). */
  options: readonly string[];
  value: string[];
  onChange: (permissions: string[]) => void;
  helperText?: string;
  loading?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
}

/**
 * Chooses several permissions, grouped by the part of the console they open, each shown with
 * its name and what it allows. Typing filters by name or description.
 */
export function PermissionSelect(props: PermissionSelectProps) {
  const { t } = useTranslation();
  const options = useMemo(() => sortByArea(props.options), [props.options]);
  const describe = (permission: string) => t(`shared.permissionInfo.${permission}`, { defaultValue: '' });
  return (
    <Autocomplete
      multiple
      disableCloseOnSelect
      options={options}
      value={props.value}
      onChange={(_event, chosen) => props.onChange(sortByArea(chosen))}
      groupBy={(permission) => t(`shared.permissionAreas.${permissionArea(permission)}`)}
      filterOptions={(all, state) => {
        const typed = state.inputValue.trim().toLowerCase();
        return all.filter((p) => p.includes(typed) || describe(p).toLowerCase().includes(typed));
      }}
      loading={props.loading}
      loadingText={t('common.loading')}
      noOptionsText={t('shared.permissionSelect.none')}
      disabled={props.disabled}
      renderOption={(optionProps, permission, { selected }) => {
        const { key, ...rest } = optionProps;
        return (
          <Box component="li" key={key} {...rest} sx={{ gap: 1, alignItems: 'flex-start !important' }}>
            <Checkbox
              size="small"
              checked={selected}
              tabIndex={-1}
              sx={{ p: 0.25 }}
              slotProps={{ input: { 'aria-hidden': true } }}
            />
            <Box>
              <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                {permission}
              </Typography>
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {describe(permission)}
              </Typography>
            </Box>
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField {...params} label={props.label} helperText={props.helperText} autoFocus={props.autoFocus} />
      )}
    />
  );
}
