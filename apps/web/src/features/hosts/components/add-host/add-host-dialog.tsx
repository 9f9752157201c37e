import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdmin } from '../../../../lib/permissions';
import { useSession } from '../../../../lib/use-session';
import { useAgents } from '../../api/list-agents';
import type { ChosenKey } from './key-chooser';
import { KeyChooser } from './key-chooser';
import { CommandSteps } from './command-steps';
import { HostWatch } from './host-watch';

/** The add-host flow's state: the key chosen, and the hosts known when the wait began. */
function AddHostContent({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const admin = isAdmin(user);
  const agents = useAgents();
  const [chosen, setChosen] = useState<ChosenKey | null>(null);
  const snapshot = () => new Set((agents.data?.agents ?? []).map((agent) => agent.id));
  // Non-administrators cannot list keys; they wait from the start, for a key they get elsewhere.
  const [known, setKnown] = useState<ReadonlySet<string> | null>(() => (admin ? null : snapshot()));
  const choose = (key: ChosenKey) => {
    setChosen(key);
    setKnown(snapshot());
  };

  return (
    <>
      <DialogContent>
        <Stack spacing={3} sx={{ pt: 1 }}>
          {admin ? (
            <KeyChooser chosen={chosen} onChosen={choose} />
          ) : (
            <Alert severity="info" variant="outlined">
              {t('hosts.addDialog.notAdmin')}
            </Alert>
          )}
          {chosen || !admin ? <CommandSteps chosen={chosen} /> : null}
          {known ? <HostWatch known={known} agents={agents.data?.agents ?? []} /> : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button variant="contained" onClick={onClose}>
          {t('hosts.addDialog.done')}
        </Button>
      </DialogActions>
    </>
  );
}

/**
 * Add host: pick or generate a registration key, then run the command shown on the new host;
 * the dialog watches the live list and says when the host joins. A stray click outside does not
 * close it, since a new key's secret cannot be shown again.
 */
export function AddHostDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id={titleId}>{t('hosts.addDialog.title')}</DialogTitle>
      {/* The dialog unmounts its content when closed, so each opening starts afresh. */}
      <AddHostContent onClose={onClose} />
    </Dialog>
  );
}
