import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Provider } from './sso-form-model';
import { PROVIDERS } from './sso-form-model';

/** How a provider's tab is marked. */
export interface ProviderMarks {
  /** The stored sign-in method. */
  active: Provider | null;
  /** The chosen one, when it differs from the stored one (not saved yet). */
  chosen: Provider | null;
  /** Providers with unsaved edits. */
  edited: readonly Provider[];
  /** Providers with fields to fix. */
  invalid: readonly Provider[];
}

/**
 * One tab per provider, each keeping its own settings, so one can be prepared before switching to
 * it. Tabs say which provider is active or chosen, and which have unsaved edits or errors.
 */
export function SsoProviderTabs(props: {
  tab: Provider;
  onTab: (tab: Provider) => void;
  marks: ProviderMarks;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { marks } = props;
  const label = (provider: Provider) => {
    const notes = [
      marks.edited.includes(provider) ? t('settings.sso.tabEdited') : null,
      marks.invalid.includes(provider) ? t('settings.sso.tabInvalid') : null,
    ].filter((note): note is string => note !== null);
    const chip =
      marks.chosen === provider
        ? { text: t('settings.sso.chosenChip'), color: 'warning' as const }
        : marks.active === provider && marks.chosen === null
          ? { text: t('settings.sso.activeChip'), color: 'success' as const }
          : null;
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        {t(`settings.sso.methods.${provider}.name`)}
        {chip ? <Chip component="span" size="small" variant="outlined" color={chip.color} label={chip.text} /> : null}
        {notes.length > 0 ? (
          <Box
            component="span"
            title={notes.join(', ')}
            aria-label={notes.join(', ')}
            role="img"
            sx={{
              width: 8,
              height: 8,
              borderRadius: '50%',
              bgcolor: marks.invalid.includes(provider) ? 'error.main' : 'warning.main',
            }}
          />
        ) : null}
      </Box>
    );
  };
  return (
    <>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={props.tab}
          onChange={(_event, tab: Provider) => props.onTab(tab)}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label={t('settings.sso.providersLabel')}
        >
          {PROVIDERS.map((provider) => (
            <Tab
              key={provider}
              value={provider}
              label={label(provider)}
              id={`${id}-${provider}`}
              aria-controls={`${id}-${provider}-panel`}
              sx={{ textTransform: 'none' }}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`${id}-${props.tab}-panel`} aria-labelledby={`${id}-${props.tab}`}>
        {props.children}
      </Box>
    </>
  );
}
