import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import type { TunnelItem, TunnelType } from '../api/list-tunnels';
import { useCreateTunnel, useUpdateTunnel } from '../api/tunnel-mutations';
import { useGroupOptions, useHostOptions } from '../api/tunnel-options';
import type { TunnelForm } from '../form/tunnel-form';
import { emptyForm, formFrom, toBody, validateTunnelForm } from '../form/tunnel-form';
import { TunnelFormFields } from './tunnel-form-fields';
import { useLast } from './use-last';

/** Props of the create/edit dialog; `editing` null creates. */
export interface TunnelFormDialogProps {
  open: boolean;
  editing: TunnelItem | null;
  /** The type a new definition starts with. */
  defaultType: TunnelType;
  onClose: () => void;
  /** Called with a definition whose key pair was just generated, to show its public key. */
  onNewKey: (item: TunnelItem) => void;
}

function TunnelFormContent({ editing, defaultType, onClose, onNewKey }: Omit<TunnelFormDialogProps, 'open'>) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const { user } = useSession();
  const withGroup = hasPermission(user, ['list-group']);
  const hosts = useHostOptions();
  const groups = useGroupOptions(withGroup);
  const create = useCreateTunnel();
  const update = useUpdateTunnel();
  const [form, setForm] = useState<TunnelForm>(() => (editing ? formFrom(editing) : emptyForm(defaultType)));
  const [submitted, setSubmitted] = useState(false);
  const errors = validateTunnelForm(form, editing);
  const busy = create.isPending || update.isPending;

  const done = (item: TunnelItem, message: string) => {
    snackbar.success(message);
    onClose();
    if (item.public_key && item.ssh_auth === 'key' && item.public_key !== editing?.public_key) onNewKey(item);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    const body = toBody(form, withGroup);
    const onError = (error: Error) => snackbar.error(errorText(error));
    if (editing)
      update.mutate(
        { id: editing.id, body },
        { onSuccess: (answer) => done(answer.definition, t('tunnels.updated')), onError },
      );
    else
      create.mutate(
        { type: form.type, body },
        { onSuccess: (answer) => done(answer.definition, t('tunnels.created')), onError },
      );
  };

  return (
    <form noValidate onSubmit={submit}>
      <DialogContent sx={{ pt: 1 }}>
        <TunnelFormFields
          form={form}
          errors={submitted ? errors : {}}
          editing={editing}
          hosts={hosts.data?.agents}
          hostsError={hosts.error ? errorText(hosts.error) : undefined}
          groups={withGroup ? (groups.data ?? []) : undefined}
          onChange={(patch) => setForm((current) => ({ ...current, ...patch }))}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={busy}>
          {editing ? t('tunnels.form.save') : t('tunnels.form.create')}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Create or edit a tunnel definition. */
export function TunnelFormDialog({ open, ...props }: TunnelFormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const editing = useLast(props.editing);
  return (
    <Dialog open={open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>
        {editing ? t('tunnels.form.editTitle', { name: editing.name }) : t('tunnels.form.createTitle')}
      </DialogTitle>
      {/* The dialog unmounts its content when closed, so each opening starts from the definition. */}
      <TunnelFormContent {...props} editing={editing} />
    </Dialog>
  );
}
