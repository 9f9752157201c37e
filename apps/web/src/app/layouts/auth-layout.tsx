import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';

/** Signed out: only the auth content, centred on a grey gradient (spec §2.4). */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useEffect(() => {
    // Block body on purpose: newer browsers return a promise from scrollTo, which is no cleanup.
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        color: 'text.primary',
        background:
          'radial-gradient(1200px 600px at 10% -10%, rgba(0,120,215,0.22), transparent 60%), linear-gradient(160deg, #3a3b40 0%, #26272b 45%, #18181b 100%)',
      }}
    >
      <Box
        component="header"
        sx={{ display: 'flex', justifyContent: 'flex-end', p: { xs: 1.5, sm: 2.5 }, color: 'common.white' }}
      >
        <LanguageSwitcher />
      </Box>
      <Box
        component="main"
        sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2, pb: 8 }}
      >
        {children}
      </Box>
    </Box>
  );
}
