import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { usePageTitle } from '../../../components/use-page-title';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { formatCount } from '../../../lib/format';
import { getToken, signOut } from '../../../lib/session';
import type { ConnectHello } from '../connection/desktop-protocol';
import { CLIPBOARD_MAX_BYTES, browserScreen, desktopSize } from '../connection/desktop-protocol';
import { useDesktopConnection } from '../connection/use-desktop-connection';
import { ClipboardDialog } from './clipboard-dialog';
import type { HostCredentials } from './connect-form';
import { ConnectForm } from './connect-form';
import { DesktopConnecting } from './desktop-connecting';
import { DesktopEndPanel } from './desktop-end';
import { DesktopStage } from './desktop-stage';
import { useRemoteResize } from './use-stage';

/** The tunnel definitions the signed-in user may use (GET api/tunneldefinition). */
function useUsableDefinitions() {
  return useQuery({
    queryKey: ['desktop', 'definitions'],
    queryFn: ({ signal }) => apiCall(API.listTunnels, { signal }),
  });
}

const BACK = '/tunnels';

/**
 * /desktop/:definitionId: the remote desktop of an RDP tunnel in the browser. The user signs in
 * to the host; Gatehouse connects, records what is shown, and the desktop fills the window.
 */
export function DesktopPage() {
  const { t, i18n } = useTranslation();
  const { definitionId = '' } = useParams();
  const definitions = useUsableDefinitions();
  const lists = definitions.data;
  const definition = lists
    ? [...lists.rdp, ...lists.ssh, ...lists.generic, ...lists.agent].find((entry) => entry.id === definitionId)
    : undefined;
  const host = definition ? `${definition.name} (${definition.host.hostname})` : null;
  const title = host ?? t('desktop.title');
  usePageTitle(title);

  const { connection, state } = useDesktopConnection();
  const targetRef = useRef<HTMLDivElement>(null);
  const [last, setLast] = useState({ username: '', domain: '' });
  const [confirming, setConfirming] = useState(false);
  const [clipboardOpen, setClipboardOpen] = useState(false);
  const [clipboardSeen, setClipboardSeen] = useState<string | null>(null);
  // The gateway did not take a text sent to the desktop's clipboard: the user reads why.
  const snackbar = useSnackbar();
  const refused = state.clipboardRefused;
  useEffect(() => {
    if (!refused) return;
    // The gateway's reason in the user's language; its own (English) words, isolated, for a code this console does not know.
    const reason = refused.code
      ? t(`desktop.clipboard.refusedWhy.${refused.code}`, { max: formatCount(CLIPBOARD_MAX_BYTES, i18n.language) })
      : `\u2068${refused.message}\u2069`;
    snackbar.error(t('desktop.clipboard.refused', { reason }));
    // Each refusal once (seq), whatever else re-renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refused?.seq]);
  // The remote desktop follows the area's size (debounced); a host that cannot keeps its size, scaled.
  useRemoteResize(targetRef, state.phase === 'connected', connection.requestSize);

  const connect = ({ username, password, domain }: HostCredentials) => {
    setLast({ username, domain });
    const area = targetRef.current;
    const size = desktopSize({ width: area?.clientWidth ?? 0, height: area?.clientHeight ?? 0 });
    const hello: ConnectHello = { token: getToken() ?? '', username, password, ...size };
    const screen = browserScreen();
    if (screen) hello.screen = screen;
    if (domain) hello.domain = domain;
    connection.open({
      path: `/api/desktop/connect?definition=${encodeURIComponent(definitionId)}`,
      hello,
      viewOnly: false,
      target: () => targetRef.current,
    });
  };

  const back = { to: BACK, label: t('desktop.actions.backToTunnels') };
  const unusable = lists !== undefined && (!definition || definition.type !== 'rdp');

  let overlay = null;
  if (state.phase === 'idle') {
    if (definitions.isLoading) overlay = <CircularProgress aria-label={t('common.loading')} />;
    else if (unusable)
      overlay = (
        <Box sx={{ maxWidth: 520 }}>
          <Alert severity="warning" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
            {definition ? t('desktop.notRdp') : t('desktop.notAvailable')}
          </Alert>
          <Box sx={{ textAlign: 'center', mt: 2 }}>
            <Button variant="contained" component={RouterLink} to={BACK}>
              {back.label}
            </Button>
          </Box>
        </Box>
      );
    else overlay = <ConnectForm host={host} initial={last} onConnect={connect} />;
  } else if (state.phase === 'connecting')
    overlay = (
      <DesktopConnecting
        title={host ? t('desktop.connecting', { host }) : t('desktop.connectingUnknown')}
        hint={t('desktop.connectingHint')}
        onCancel={connection.reset}
      />
    );
  else if (state.phase === 'ended' && state.end)
    overlay = (
      <DesktopEndPanel
        end={state.end}
        back={back}
        onRetry={connection.reset}
        onSignIn={() => signOut({ kind: 'revoked', message: state.end?.message ?? null })}
      />
    );

  return (
    <Box>
      <DesktopStage
        connected={state.phase === 'connected'}
        targetRef={targetRef}
        label={t('desktop.areaLabel', { host: host ?? t('desktop.title') })}
        overlay={overlay}
        toolbar={{
          title,
          onCtrlAltDel: connection.sendCtrlAltDel,
          // The definition's policy (enforced by the gateway): no button when the clipboard is off.
          ...(state.clipboardPolicy === 'off'
            ? { clipboardOff: true }
            : {
                onClipboard: () => {
                  setClipboardSeen(state.clipboard);
                  setClipboardOpen(true);
                },
              }),
          clipboardNew: state.clipboard !== null && state.clipboard !== clipboardSeen,
          onLeave: () => setConfirming(true),
        }}
      />
      <ClipboardDialog
        open={clipboardOpen && state.phase === 'connected' && state.clipboardPolicy !== 'off'}
        policy={state.clipboardPolicy}
        received={state.clipboard}
        onSend={connection.paste}
        onClose={() => {
          setClipboardOpen(false);
          connection.focus();
        }}
      />
      <ConfirmDialog
        open={confirming && state.phase === 'connected'}
        title={t('desktop.disconnectDialog.title')}
        message={t('desktop.disconnectDialog.message', { host: host ?? t('desktop.title') })}
        confirmLabel={t('desktop.disconnectDialog.confirm')}
        destructive
        onConfirm={() => {
          setConfirming(false);
          connection.disconnect();
        }}
        onCancel={() => {
          setConfirming(false);
          connection.focus();
        }}
      />
    </Box>
  );
}
