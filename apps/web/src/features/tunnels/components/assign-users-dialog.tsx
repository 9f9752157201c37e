import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { PickedUser } from '../../../components/user-picker';
import { UserPicker } from '../../../components/user-picker';
import type { TunnelItem } from '../api/list-tunnels';
import { useSetTunnelUsers } from '../api/tunnel-mutations';
import { useUserDirectory } from '../api/tunnel-options';
import { useLast } from './use-last';

/** A user the directory does not show (the caller lacks list-user): named by id. */
function unknownUser(id: string): PickedUser {
  return { id, email: id, name: null, roles: [], groups: [], created_at: '', two_factor: { totp: false, passkeys: 0 } };
}

function UsersEditor({ item, initial, onClose }: { item: TunnelItem; initial: PickedUser[]; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useSetTunnelUsers();
  const [chosen, setChosen] = useState(initial);
  const save = () =>
    mutation.mutate(
      { id: item.id, users: chosen.map((user) => user.id) },
      {
        onSuccess: () => {
          snackbar.success(t('tunnels.updated'));
          onClose();
        },
        onError: (error) => snackbar.error(errorText(error)),
      },
    );
  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {item.group ? t('tunnels.users.textGroup', { group: item.group }) : t('tunnels.users.text')}
        </DialogContentText>
        <UserPicker
          label={t('tunnels.users.label')}
          value={chosen}
          onChange={setChosen}
          disabled={mutation.isPending}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} color="inherit" disabled={mutation.isPending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={save} loading={mutation.isPending}>
          {t('tunnels.users.save')}
        </Button>
      </DialogActions>
    </>
  );
}

/** Names the users admitted when the dialog opened, then edits them; later list refreshes do not reset it. */
function UsersContent({ item, onClose }: { item: TunnelItem; onClose: () => void }) {
  const { t } = useTranslation();
  const [admitted] = useState(item.users);
  const directory = useUserDirectory(admitted.length > 0);
  if (admitted.length > 0 && directory.data === undefined && !directory.isError) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  }
  const byId = new Map((directory.data?.users ?? []).map((user) => [user.id, user]));
  const initial = admitted.map((id) => byId.get(id) ?? unknownUser(id));
  return <UsersEditor item={item} initial={initial} onClose={onClose} />;
}

/** The users a definition admits directly: exactly the set chosen here is saved. */
export function AssignUsersDialog(props: { item: TunnelItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const item = useLast(props.item);
  return (
    <Dialog open={props.item !== null} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('tunnels.users.title', { name: item?.name ?? '' })}</DialogTitle>
      {item ? <UsersContent item={item} onClose={props.onClose} /> : null}
    </Dialog>
  );
}
