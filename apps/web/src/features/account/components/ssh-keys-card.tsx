import { SSO_SSH_KEY_HOURS } from '@gatehouse/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { useDeleteSshKey } from '../api/delete-ssh-key';
import { useMyAccess } from '../api/my-access';
import type { SshKey } from '../api/list-ssh-keys';
import { useSshKeys } from '../api/list-ssh-keys';
import { AddSshKeyDialog } from './add-ssh-key-dialog';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';
import { SshKeysTable } from './ssh-keys-table';

/** The user's SSH public keys for the gateway: how to use them, the list, add and delete. */
export function SshKeysCard({ email }: { email: string }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const keys = useSshKeys();
  const remove = useDeleteSshKey();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<SshKey | null>(null);
  // The gateway's address and port as the server knows them (GET /api/me/access), never a guess.
  const gateway = useMyAccess().data?.gateway;
  const command = gateway
    ? `ssh -p ${String(gateway.port)} ${email}@<${t('account.keys.agentWord')}>@${gateway.host}`
    : undefined;

  return (
    <SectionCard
      icon={KeyOutlined}
      title={t('account.keys.title')}
      action={
        <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setAdding(true)}>
          {t('account.keys.add')}
        </Button>
      }
    >
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('account.keys.usage')}{' '}
        {command === undefined ? (
          <Skeleton variant="text" width={280} sx={{ display: 'inline-block' }} />
        ) : (
          <Box
            component="code"
            dir="ltr"
            sx={{
              fontFamily: 'monospace',
              bgcolor: 'action.hover',
              px: 0.75,
              py: 0.25,
              borderRadius: 1,
              unicodeBidi: 'isolate',
              overflowWrap: 'anywhere',
            }}
          >
            {command}
          </Box>
        )}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('account.keys.ssoNote', { hours: SSO_SSH_KEY_HOURS })}
      </Typography>
      {keys.isError ? <LoadFailed error={keys.error} onRetry={() => void keys.refetch()} /> : null}
      {keys.isPending ? <Skeleton variant="rounded" height={96} /> : null}
      {keys.data?.keys.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', py: 2 }}>{t('account.keys.empty')}</Typography>
      ) : null}
      {keys.data && keys.data.keys.length > 0 ? <SshKeysTable keys={keys.data.keys} onDelete={setDeleting} /> : null}
      <AddSshKeyDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('account.keys.deleteTitle')}
        message={t('account.keys.deleteMessage', {
          name: deleting?.name ?? '',
          fingerprint: deleting?.fingerprint ?? '',
        })}
        confirmLabel={t('common.delete')}
        destructive
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => snackbar.success(t('account.keys.deleted', { name: deleting.name })),
            onError: (error) => snackbar.error(errorText(error, t('message.somethingWentWrong'))),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </SectionCard>
  );
}
