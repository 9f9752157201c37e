import { LOGOUT_REDIRECT_MS } from '@gatehouse/contracts';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { usePageTitle } from '../../../components/use-page-title';
import { getToken, signOut } from '../../../lib/session';
import { logout } from '../api/logout';

/**
 * /signout: revokes the token, shows 'You have been logged out', and after 500 ms clears token,
 * user and security settings and goes to /#/signin (spec §4, §9).
 */
export function SignOutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const started = useRef(false);
  const [revoked, setRevoked] = useState(false);
  usePageTitle(t('auth.signedOut.title'));

  useEffect(() => {
    // Once per mount, also under StrictMode's double effects: a second logout would be a no-op call.
    if (started.current) return;
    started.current = true;
    void (getToken() ? logout() : Promise.resolve()).then(() => setRevoked(true));
  }, []);

  useEffect(() => {
    if (!revoked) return;
    const timer = window.setTimeout(() => {
      signOut();
      void navigate('/signin', { replace: true });
    }, LOGOUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [revoked, navigate]);

  return (
    <AuthCard title={t('auth.signedOut.title')}>
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1 }}>
        {revoked ? <CheckCircleOutlined color="success" aria-hidden /> : <CircularProgress size={22} aria-hidden />}
        <Typography sx={{ color: 'text.secondary' }}>{t('auth.signedOut.subtitle')}</Typography>
      </Box>
    </AuthCard>
  );
}
