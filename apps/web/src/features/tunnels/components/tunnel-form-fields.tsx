import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { TunnelItem, TunnelType } from '../api/list-tunnels';
import { TUNNEL_TYPES } from '../api/list-tunnels';
import type { HostOption } from '../api/tunnel-options';
import type { TunnelErrors, TunnelField, TunnelForm } from '../form/tunnel-form';
import { DEFAULT_PORTS, withType } from '../form/tunnel-form';
import { SshFields } from './ssh-fields';
import { UnfilmedRdpField } from './unfilmed-rdp-field';
import { RdpClipboardField } from './rdp-clipboard-field';

/** Props of the definition fields. */
export interface TunnelFormFieldsProps {
  form: TunnelForm;
  errors: TunnelErrors;
  /** The definition being changed; its type is fixed and a blank password keeps the stored one. */
  editing: TunnelItem | null;
  /** Hosts to choose from; undefined while loading. */
  hosts: readonly HostOption[] | undefined;
  /** Why the hosts could not be loaded, if they could not. */
  hostsError?: string;
  /** Group names; undefined hides the field (the user lacks list-group). */
  groups: readonly string[] | undefined;
  onChange: (patch: Partial<TunnelForm>) => void;
}

/** Type, name, host, port, group and, for ssh, login and credential mode. */
export function TunnelFormFields(props: TunnelFormFieldsProps) {
  const { form, errors, editing, hosts, groups, onChange } = props;
  const { t } = useTranslation();
  const message = (field: TunnelField) => {
    const error = errors[field];
    return error ? t(error.key, error.values) : undefined;
  };
  const portDefault = DEFAULT_PORTS[form.type];
  return (
    <Stack spacing={2.5} sx={{ pt: 1 }}>
      {editing ? null : (
        <TextField
          select
          label={t('tunnels.form.type')}
          value={form.type}
          onChange={(event) => onChange(withType(form, event.target.value as TunnelType))}
        >
          {TUNNEL_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {t(`tunnels.types.${type}`)}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        label={t('tunnels.form.name')}
        value={form.name}
        onChange={(event) => onChange({ name: event.target.value })}
        error={errors.name !== undefined}
        helperText={message('name')}
        autoFocus
        slotProps={{ htmlInput: { maxLength: 100, 'aria-required': true } }}
      />
      <TextField
        select
        label={t('tunnels.form.host')}
        value={hosts ? form.hostId : ''}
        onChange={(event) => onChange({ hostId: event.target.value })}
        error={errors.hostId !== undefined || props.hostsError !== undefined}
        helperText={
          message('hostId') ?? props.hostsError ?? (hosts?.length === 0 ? t('tunnels.form.noHosts') : undefined)
        }
        disabled={!hosts || hosts.length === 0}
        slotProps={{ htmlInput: { 'aria-required': true } }}
      >
        {(hosts ?? []).map((host) => (
          <MenuItem key={host.id} value={host.id}>
            {host.connected ? t('tunnels.form.hostConnected', { hostname: host.hostname }) : host.hostname}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="number"
        label={t('tunnels.form.port')}
        value={form.port}
        onChange={(event) => onChange({ port: event.target.value })}
        error={errors.port !== undefined}
        helperText={
          message('port') ??
          (portDefault ? t('tunnels.form.portDefault', { port: portDefault }) : t('tunnels.form.portRequired'))
        }
        slotProps={{ htmlInput: { min: 1, max: 65535, step: 1, 'aria-required': portDefault === '' } }}
      />
      {groups ? (
        <TextField
          select
          label={t('tunnels.form.group')}
          value={form.group}
          onChange={(event) => onChange({ group: event.target.value })}
          helperText={t('tunnels.form.groupHelper')}
        >
          <MenuItem value="">
            <em>{t('tunnels.form.noGroup')}</em>
          </MenuItem>
          {/* A stored group not in the list yet (still loading) stays selectable. */}
          {(form.group && !groups.includes(form.group) ? [form.group, ...groups] : groups).map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      {form.type === 'ssh' ? <SshFields form={form} errors={errors} editing={editing} onChange={onChange} /> : null}
      {form.type === 'rdp' ? (
        <UnfilmedRdpField value={form.unfilmedRdp} onChange={(unfilmedRdp) => onChange({ unfilmedRdp })} />
      ) : null}
      {form.type === 'rdp' ? (
        <RdpClipboardField value={form.rdpClipboard} onChange={(rdpClipboard) => onChange({ rdpClipboard })} />
      ) : null}
    </Stack>
  );
}
