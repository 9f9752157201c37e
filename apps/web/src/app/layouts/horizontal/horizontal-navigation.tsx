import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { ThemeProvider, alpha } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { HORIZONTAL_MAX_WIDTH } from '../shared/layout-sizes';
import { NavCounts } from '../shared/nav-counts';
import { MAIN_NAVIGATION_LABEL, useNavItems } from '../shared/use-nav-items';

/** The bar's look: the primary colour (h-default), light (hor-light-nav) or dark (hor-dark-layout). */
export type HorizontalNavTone = 'primary' | 'light' | 'dark';

/** The main navigation across the header of the horizontal layouts, from lg up (spec §2.5). */
export function HorizontalNavigation({ tone }: { tone: HorizontalNavTone }) {
  const { darkTheme, lightTheme, settings } = useThemeSettings();
  const pill = settings.themeStyle === 'modern';
  const { items, counts } = useNavItems();
  return (
    <ThemeProvider theme={tone === 'light' ? lightTheme : darkTheme}>
      <Box
        data-nav-tone={tone}
        sx={{
          bgcolor: tone === 'primary' ? 'primary.main' : 'background.paper',
          color: tone === 'primary' ? 'primary.contrastText' : 'text.primary',
          borderTop: 1,
          borderColor: 'divider',
          // On the primary bar the theme's primary focus ring would vanish: white instead.
          ...(tone === 'primary'
            ? { '& .Mui-focusVisible, & :focus-visible': { outline: '2px solid #ffffff', outlineOffset: 2 } }
            : {}),
        }}
      >
        <Box
          component="nav"
          aria-label={MAIN_NAVIGATION_LABEL}
          sx={{ maxWidth: HORIZONTAL_MAX_WIDTH, mx: 'auto', px: { xs: 1.5, sm: 3 } }}
        >
          <Box
            component="ul"
            sx={{ listStyle: 'none', m: 0, p: 0, py: 0.75, display: 'flex', flexWrap: 'wrap', gap: 0.25 }}
          >
            {items.map(({ entry, label, active, countsId }) => {
              const Icon = entry.icon;
              return (
                <li key={entry.id}>
                  <ButtonBase
                    component={RouterLink}
                    to={entry.path}
                    aria-current={active ? 'page' : undefined}
                    aria-label={label}
                    aria-describedby={countsId}
                    sx={(theme) => {
                      const base = {
                        gap: 0.75,
                        px: 1.25,
                        py: 0.75,
                        borderRadius: pill ? '999px' : '6px',
                        fontSize: '0.875rem',
                        fontWeight: 500,
                      };
                      if (tone === 'primary')
                        return {
                          ...base,
                          color: 'inherit',
                          // Status colours do not read on the primary bar: the counts turn white on a dark tint.
                          '& .MuiChip-root': {
                            color: 'common.white',
                            bgcolor: 'rgba(0,0,0,0.3)',
                            borderColor: 'rgba(255,255,255,0.6)',
                          },
                          bgcolor: active ? 'rgba(0,0,0,0.28)' : 'transparent',
                          '&:hover': { bgcolor: active ? 'rgba(0,0,0,0.32)' : 'rgba(0,0,0,0.12)' },
                        };
                      if (active)
                        return {
                          ...base,
                          color: theme.palette.primary.contrastText,
                          bgcolor: theme.palette.primary.main,
                          boxShadow: `0 4px 12px ${alpha(theme.palette.primary.main, 0.3)}`,
                          '&:hover': { bgcolor: theme.palette.primary.dark },
                          '& .MuiChip-root': {
                            color: theme.palette.primary.contrastText,
                            bgcolor: 'rgba(0,0,0,0.28)',
                            borderColor: alpha(theme.palette.primary.contrastText, 0.6),
                          },
                        };
                      return {
                        ...base,
                        color: 'text.secondary',
                        '&:hover': { bgcolor: 'action.hover', color: 'text.primary' },
                      };
                    }}
                  >
                    <Icon fontSize="small" aria-hidden />
                    <span>{label}</span>
                    {entry.counts && countsId ? <NavCounts id={countsId} keys={entry.counts} counts={counts} /> : null}
                  </ButtonBase>
                </li>
              );
            })}
          </Box>
        </Box>
      </Box>
    </ThemeProvider>
  );
}
