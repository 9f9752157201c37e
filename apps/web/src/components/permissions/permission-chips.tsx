import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { sortByArea } from './permission-areas';

/** Props of a wrapping row of permission chips. */
export interface PermissionChipsProps {
  permissions: readonly string[];
  /** Show one 'Every permission' chip instead (the admin role). */
  all?: boolean;
}

/** Permissions as chips that wrap, in area order, each with what it allows as a tooltip. */
export function PermissionChips({ permissions, all }: PermissionChipsProps) {
  const { t } = useTranslation();
  if (all) return <Chip size="small" color="warning" variant="outlined" label={t('shared.everyPermission')} />;
  if (permissions.length === 0) {
    return <Box sx={{ color: 'text.secondary', fontSize: '0.85rem' }}>{t('shared.noPermissions')}</Box>;
  }
  return (
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, listStyle: 'none', m: 0, p: 0 }}>
      {sortByArea(permissions).map((permission) => (
        <li key={permission}>
          <Tooltip describeChild title={t(`shared.permissionInfo.${permission}`, { defaultValue: '' })}>
            <Chip size="small" variant="outlined" label={permission} sx={{ fontFamily: 'monospace' }} />
          </Tooltip>
        </li>
      ))}
    </Box>
  );
}
