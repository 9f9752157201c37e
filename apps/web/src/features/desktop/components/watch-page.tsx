import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePageTitle } from '../../../components/use-page-title';
import { getToken, signOut } from '../../../lib/session';
import { useRecordingDetail } from '../../player/api/recording-detail';
import type { WatchHello } from '../connection/desktop-protocol';
import { useDesktopConnection } from '../connection/use-desktop-connection';
import { DesktopConnecting } from './desktop-connecting';
import { DesktopEndPanel } from './desktop-end';
import { DesktopStage } from './desktop-stage';

/**
 * /desktop/watch/:recordingId: a gateway desktop as it happens, view only (the server never
 * delivers a watcher's input); the same picture the user sees and the recording keeps.
 */
export function WatchPage() {
  const { t } = useTranslation();
  const { recordingId = '' } = useParams();
  const detail = useRecordingDetail(recordingId);
  const host = detail.data ? `${detail.data.host.hostname} · ${detail.data.user.email}` : null;
  const title = host ?? t('desktop.watchTitle');
  usePageTitle(title);

  const { connection, state } = useDesktopConnection();
  const targetRef = useRef<HTMLDivElement>(null);

  const watch = useCallback(() => {
    const hello: WatchHello = { token: getToken() ?? '' };
    connection.open({
      path: `/api/desktop/watch?recording=${encodeURIComponent(recordingId)}`,
      hello,
      viewOnly: true,
      target: () => targetRef.current,
    });
  }, [connection, recordingId]);

  useEffect(() => {
    watch();
    return () => connection.dispose();
  }, [watch, connection]);

  const back = { to: '/recordings', label: t('desktop.actions.backToSessions') };
  let overlay = null;
  if (state.phase === 'connecting' || state.phase === 'idle')
    overlay = (
      <DesktopConnecting
        title={t('desktop.watchConnecting')}
        hint={t('desktop.watchConnectingHint')}
        onCancel={connection.disconnect}
      />
    );
  else if (state.phase === 'ended' && state.end)
    overlay = (
      <DesktopEndPanel
        end={state.end}
        watching
        back={back}
        onRetry={watch}
        onSignIn={() => signOut({ kind: 'revoked', message: state.end?.message ?? null })}
      />
    );

  return (
    <DesktopStage
      connected={state.phase === 'connected'}
      targetRef={targetRef}
      label={t('desktop.areaLabel', { host: host ?? t('desktop.watchTitle') })}
      overlay={overlay}
      toolbar={{ title, watching: true, onLeave: connection.disconnect }}
    />
  );
}
