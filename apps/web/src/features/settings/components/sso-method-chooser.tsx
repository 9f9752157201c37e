import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import PasswordOutlined from '@mui/icons-material/PasswordOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { IconComponent } from '../../../components/icon-type';
import type { AuthTypeValue } from './sso-form-model';

/** The methods in the order offered, with their icon and message id (settings.sso.methods.<key>). */
const METHODS: readonly { type: AuthTypeValue; key: string; icon: IconComponent }[] = [
  { type: 1, key: 'password', icon: PasswordOutlined },
  { type: 4, key: 'ldap', icon: AccountTreeOutlined },
  { type: 3, key: 'oidc', icon: HubOutlined },
  { type: 2, key: 'saml', icon: BadgeOutlined },
];

/** The message id of an auth type's name. */
export function methodName(type: AuthTypeValue): string {
  return `settings.sso.methods.${METHODS.find((method) => method.type === type)?.key ?? 'password'}.name`;
}

/**
 * How people sign in: one card per method (arrow keys move between them, as in any radio group);
 * the stored method is marked Active, the chosen one is checked.
 */
export function SsoMethodChooser(props: {
  value: AuthTypeValue;
  active: AuthTypeValue;
  onChange: (type: AuthTypeValue) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Box>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('settings.sso.methodHeading')}
      </Typography>
      <RadioGroup
        aria-labelledby={headingId}
        name="auth-type"
        value={String(props.value)}
        onChange={(_event, value) => {
          const chosen = METHODS.find((method) => String(method.type) === value);
          if (chosen) props.onChange(chosen.type);
        }}
      >
        <Grid container spacing={1.5}>
          {METHODS.map(({ type, key, icon: Icon }) => {
            const selected = props.value === type;
            return (
              <Grid key={type} size={{ xs: 12, sm: 6, xl: 3 }}>
                <FormControlLabel
                  value={String(type)}
                  control={<Radio sx={{ mt: -0.5 }} />}
                  sx={{
                    m: 0,
                    p: 1.5,
                    pe: 2,
                    height: '100%',
                    width: '100%',
                    alignItems: 'flex-start',
                    border: 1,
                    borderRadius: 2,
                    borderColor: selected ? 'primary.main' : 'divider',
                    bgcolor: selected ? 'action.selected' : 'transparent',
                    transition: 'border-color 120ms, background-color 120ms',
                    '&:hover': { borderColor: selected ? 'primary.main' : 'text.secondary' },
                  }}
                  slotProps={{ typography: { component: 'div', sx: { flex: 1, minWidth: 0 } } }}
                  label={
                    <>
                      <Box sx={{ display: 'flex', alignItems: 'center', columnGap: 1, rowGap: 0.5, flexWrap: 'wrap' }}>
                        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                          <Icon
                            fontSize="small"
                            aria-hidden
                            sx={{ color: selected ? 'primary.main' : 'text.secondary' }}
                          />
                          <Typography component="span" sx={{ fontWeight: 600 }}>
                            {t(`settings.sso.methods.${key}.name`)}
                          </Typography>
                        </Box>
                        {props.active === type ? (
                          <Chip size="small" color="success" label={t('settings.sso.activeChip')} />
                        ) : null}
                      </Box>
                      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
                        {t(`settings.sso.methods.${key}.description`)}
                      </Typography>
                    </>
                  }
                />
              </Grid>
            );
          })}
        </Grid>
      </RadioGroup>
    </Box>
  );
}
