import { LICENCE_NOTICE_DELAY_MS, SNACKBAR_HIDE_MS } from '@gatehouse/contracts';
import { useEffect, useEffectEvent, useRef } from 'react';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useSession } from '../../../lib/use-session';
import { useIngressTls } from '../api/ingress-tls';
import { useLicense } from '../api/license';
import type { ExpiryNotice } from '../model/expiry';
import { expiryNotice, licenseDays } from '../model/expiry';
import type { ExpiryKind } from './expiry-alert';
import { useExpiryText } from './expiry-alert';

/** Pause between two notices, so the second does not replace the first before it was read. */
const BETWEEN_NOTICES_MS = SNACKBAR_HIDE_MS + 500;

interface Due {
  id: string;
  kind: ExpiryKind;
  notice: NonNullable<ExpiryNotice>;
}

/**
 * The licence notice (spec §4, §9) and the certificate's like it: 5 s after the data arrives,
 * an error below 0 days ('License expired') or at 3 days or fewer, a warning up to 30 days,
 * nothing above. Each notice shows once per sign-in (again when the data changes its days).
 */
export function ExpiryNotices() {
  const { token } = useSession();
  const license = useLicense();
  const certificate = useIngressTls();
  const snackbar = useSnackbar();
  const text = useExpiryText();
  const shown = useRef(new Set<string>());

  const show = useEffectEvent((due: Due) => {
    shown.current.add(due.id);
    snackbar.show(due.notice.severity, text(due.kind, due.notice));
  });
  const dueNotices = useEffectEvent((): Due[] => {
    const candidates: { kind: ExpiryKind; notice: ExpiryNotice }[] = [
      { kind: 'license', notice: license.data ? expiryNotice(licenseDays(license.data, license.dataUpdatedAt)) : null },
      { kind: 'certificate', notice: certificate.data ? expiryNotice(certificate.data.days_until_expiry) : null },
    ];
    return candidates
      .filter((c): c is Omit<Due, 'id'> => c.notice !== null)
      .map((c) => ({ ...c, id: `${c.kind}:${c.notice.days}` }))
      .filter((due) => !shown.current.has(due.id));
  });

  useEffect(() => {
    if (!token) {
      shown.current.clear();
      return;
    }
    const timers = dueNotices().map((due, index) =>
      window.setTimeout(() => show(due), LICENCE_NOTICE_DELAY_MS + index * BETWEEN_NOTICES_MS),
    );
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [token, license.dataUpdatedAt, certificate.dataUpdatedAt]);

  return null;
}
