import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pathNameProblem } from '../../../components/path-name';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useCreateGroup } from '../api/create-group';

/** Create group (needs modify-group); on success the new group opens so members can be added. */
export function CreateGroupDialog(props: { open: boolean; onClose: () => void; onCreated: (name: string) => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useCreateGroup();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = pathNameProblem(name);

  const close = () => {
    setName('');
    setTouched(false);
    mutation.reset();
    props.onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    mutation.mutate(name.trim(), {
      onSuccess: (answer) => {
        snackbar.success(t('groups.created'));
        close();
        props.onCreated(answer.group.name);
      },
      onError: (error) => snackbar.error(errorText(error, { 409: t('groups.errors.duplicate') })),
    });
  };

  return (
    <Dialog
      open={props.open}
      onClose={mutation.isPending ? undefined : close}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('groups.createDialog.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('groups.createDialog.text')}</DialogContentText>
          <TextField
            label={t('groups.createDialog.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && problem !== null}
            helperText={
              touched && problem
                ? t(`groups.createDialog.nameProblems.${problem}`)
                : t('groups.createDialog.nameHelper')
            }
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { maxLength: 80, 'aria-required': true } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {t('groups.createDialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
