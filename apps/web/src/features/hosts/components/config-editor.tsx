import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useSaveAgentConfig } from '../api/agent-config';
import type { AgentItem } from '../api/list-agents';
import type { ConfigForm } from '../config/config-form';
import { toBody, toForm, validateForm } from '../config/config-form';
import type { HostConfig } from '../config/host-config';
import { ConfigFields } from './config-fields';

/** Props of the config form: the host, its config as loaded, and whether it may be saved. */
export interface ConfigEditorProps {
  agent: AgentItem;
  config: HostConfig;
  canModify: boolean;
  onClose: () => void;
}

/** Edits every host-config field; saving sends the whole config and says whether the host has it. */
export function ConfigEditor({ agent, config, canModify, onClose }: ConfigEditorProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useSaveAgentConfig(agent.id);
  const [form, setForm] = useState<ConfigForm>(() => toForm(config));
  const [submitted, setSubmitted] = useState(false);
  const errors = validateForm(form);
  const change = (patch: Partial<ConfigForm>) => {
    mutation.reset();
    setForm((current) => ({ ...current, ...patch }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!canModify || Object.keys(errors).length > 0) return;
    mutation.mutate(toBody(form), {
      onSuccess: (answer) => {
        snackbar.success(answer.applied ? t('hosts.config.savedApplied') : t('hosts.config.savedPending'));
        onClose();
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };

  return (
    <form noValidate onSubmit={submit}>
      <DialogContent sx={{ pt: 1 }}>
        {canModify ? null : (
          <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
            {t('hosts.config.readOnly')}
          </Alert>
        )}
        <ConfigFields
          form={form}
          os={agent.os}
          errors={submitted ? errors : {}}
          readOnly={!canModify}
          onChange={change}
        />
        {mutation.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(mutation.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} color="inherit" disabled={mutation.isPending}>
          {canModify ? t('common.cancel') : t('common.close')}
        </Button>
        {canModify ? (
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {t('hosts.config.save')}
          </Button>
        ) : null}
      </DialogActions>
    </form>
  );
}
