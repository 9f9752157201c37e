import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { EndpointMethod, EndpointRow, SecurityErrors } from '../model/security-form';
import { ENDPOINT_METHODS, SECURITY_LIMITS, newEndpointRow } from '../model/security-form';

/** Props of the limited endpoints editor. */
export interface EndpointsEditorProps {
  rows: readonly EndpointRow[];
  errors: SecurityErrors;
  /** Show problems of untouched rows too (after a save attempt). */
  showAll: boolean;
  onChange: (rows: EndpointRow[]) => void;
}

/** The limited endpoints (spec §3 api_limit_endpoints): one row per method and path regular expression. */
export function EndpointsEditor({ rows, errors, showAll, onChange }: EndpointsEditorProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const update = (id: number, patch: Partial<EndpointRow>) =>
    onChange(rows.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  return (
    <Box role="group" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('settings.security.endpoints')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('settings.security.endpointsHelper')}
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', fontStyle: 'italic', mb: 1.5 }}>
          {t('settings.security.noEndpoints')}
        </Typography>
      ) : null}
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
        {rows.map((row, index) => {
          const error = errors.paths[row.id];
          const shown = error && (showAll || row.path !== '') ? t(error.key, error.values) : undefined;
          const position = { number: index + 1 };
          return (
            <Box
              component="li"
              key={row.id}
              sx={{
                display: 'grid',
                // Narrow screens: method and remove on one line, the path below at full width.
                gridTemplateColumns: '120px 1fr auto',
                gridTemplateAreas: { xs: '"method . remove" "path path path"', sm: '"method path remove"' },
                columnGap: 1,
                rowGap: 1.5,
                alignItems: 'start',
              }}
            >
              <TextField
                select
                label={t('settings.security.method')}
                value={row.method}
                onChange={(event) => update(row.id, { method: event.target.value as EndpointMethod })}
                sx={{ gridArea: 'method' }}
              >
                {ENDPOINT_METHODS.map((method) => (
                  <MenuItem key={method} value={method}>
                    {method === '*' ? t('settings.security.anyMethod') : method}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label={t('settings.security.path')}
                value={row.path}
                onChange={(event) => update(row.id, { path: event.target.value })}
                error={shown !== undefined}
                helperText={shown ?? t('settings.security.pathHelper')}
                placeholder="^/api/user"
                fullWidth
                sx={{ gridArea: 'path' }}
                slotProps={{
                  htmlInput: {
                    'aria-label': t('settings.security.pathOf', position),
                    spellCheck: false,
                    maxLength: SECURITY_LIMITS.pathLength + 1,
                    // Regular expressions read left to right in every language.
                    dir: 'ltr',
                    sx: { fontFamily: 'monospace' },
                  },
                }}
              />
              <IconButton
                aria-label={t('settings.security.removeEndpoint', position)}
                title={t('settings.security.removeEndpoint', position)}
                onClick={() => onChange(rows.filter((other) => other.id !== row.id))}
                sx={{ gridArea: 'remove', mt: 1 }}
              >
                <DeleteOutlineOutlined />
              </IconButton>
            </Box>
          );
        })}
      </Box>
      {errors.endpoints ? (
        <FormHelperText error>{t(errors.endpoints.key, errors.endpoints.values)}</FormHelperText>
      ) : null}
      <Button
        startIcon={<AddOutlined />}
        onClick={() => onChange([...rows, newEndpointRow()])}
        disabled={rows.length >= SECURITY_LIMITS.endpoints}
        sx={{ mt: 1.5 }}
      >
        {t('settings.security.addEndpoint')}
      </Button>
    </Box>
  );
}
