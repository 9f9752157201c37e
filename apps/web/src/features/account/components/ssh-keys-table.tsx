import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { SshKey } from '../api/list-ssh-keys';

/** The registered keys: name, type, fingerprint, when added and last used, and a delete button. */
export function SshKeysTable({ keys, onDelete }: { keys: readonly SshKey[]; onDelete: (key: SshKey) => void }) {
  const { t } = useTranslation();
  return (
    <TableContainer>
      <Table size="small" aria-label={t('account.keys.tableLabel')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('account.keys.name')}</TableCell>
            <TableCell>{t('account.keys.type')}</TableCell>
            <TableCell>{t('account.keys.fingerprint')}</TableCell>
            <TableCell>{t('account.keys.created')}</TableCell>
            <TableCell>{t('account.keys.lastUsed')}</TableCell>
            <TableCell align="right">{t('common.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {keys.map((key) => {
            const label = t('account.keys.deleteLabel', { name: key.name });
            return (
              <TableRow key={key.id} hover>
                <TableCell sx={{ fontWeight: 500 }}>{key.name}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{key.type}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.8rem', wordBreak: 'break-all' }}>
                  {key.fingerprint}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(key.created_at)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {key.last_used_at ? formatDateTime(key.last_used_at) : t('account.keys.never')}
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={label}>
                    <IconButton aria-label={label} onClick={() => onDelete(key)} size="small">
                      <DeleteOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
