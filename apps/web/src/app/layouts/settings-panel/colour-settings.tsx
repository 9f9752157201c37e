import CheckOutlined from '@mui/icons-material/CheckOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { COLOR_PRESETS, matchingPreset } from '../../theme/color-presets';
import { isHexColour } from '../../theme/theme-settings';

/** A colour picker and its hex text, kept in step; the text applies once it is a whole #rrggbb. */
function ColourField({ label, value, onChange }: { label: string; value: string; onChange: (hex: string) => void }) {
  const { t } = useTranslation();
  const pickerId = useId();
  const [draft, setDraft] = useState({ for: value, text: value });
  // A preset or a reset changes the colour from outside: the text follows it.
  if (draft.for !== value) setDraft({ for: value, text: value });
  const invalid = !isHexColour(draft.text);
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5 }}>
      <Box
        component="input"
        id={pickerId}
        type="color"
        aria-label={label}
        value={value.toLowerCase()}
        onChange={(event) => onChange(event.currentTarget.value.toUpperCase())}
        sx={{
          width: 44,
          height: 40,
          p: 0.25,
          flexShrink: 0,
          cursor: 'pointer',
          border: 1,
          borderColor: 'divider',
          borderRadius: '6px',
          bgcolor: 'transparent',
        }}
      />
      <TextField
        size="small"
        fullWidth
        label={t('themeSettings.hex', { name: label })}
        value={draft.text}
        error={invalid}
        helperText={invalid ? t('themeSettings.invalidHex') : ' '}
        slotProps={{ htmlInput: { spellCheck: false, maxLength: 7, autoComplete: 'off' } }}
        onChange={(event) => {
          const text = event.target.value.trim();
          setDraft({ for: value, text });
          if (isHexColour(text)) onChange(text.toUpperCase());
        }}
      />
    </Box>
  );
}

/** The twelve presets and the custom primary and secondary colours (spec §2.9). */
export function ColourSettings({ presetsLabelId }: { presetsLabelId: string }) {
  const { t } = useTranslation();
  const { settings, update } = useThemeSettings();
  const chosen = matchingPreset(settings.primary, settings.secondary);
  return (
    <>
      <Box
        role="group"
        aria-labelledby={presetsLabelId}
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(6, 1fr)', gap: 1 }}
      >
        {COLOR_PRESETS.map((preset) => {
          const name = t(`themeSettings.presets.${preset.id}`);
          const pressed = chosen?.id === preset.id;
          return (
            <Tooltip key={preset.id} title={name}>
              <ButtonBase
                aria-label={name}
                aria-pressed={pressed}
                data-preset={preset.id}
                onClick={() => update({ primary: preset.primary, secondary: preset.secondary })}
                sx={{
                  aspectRatio: '1',
                  borderRadius: '10px',
                  overflow: 'hidden',
                  display: 'grid',
                  placeItems: 'center',
                  color: 'common.white',
                  background: `linear-gradient(135deg, ${preset.primary} 0 55%, ${preset.secondary} 55% 100%)`,
                  outline: pressed ? 2 : 0,
                  outlineColor: 'text.primary',
                  outlineOffset: 2,
                }}
              >
                {pressed ? <CheckOutlined fontSize="small" aria-hidden /> : null}
              </ButtonBase>
            </Tooltip>
          );
        })}
      </Box>
      <Typography variant="body2" sx={{ mt: 1.5, mb: 0.5, color: 'text.secondary' }}>
        {t('themeSettings.customColours')}
      </Typography>
      <ColourField
        label={t('themeSettings.primary')}
        value={settings.primary}
        onChange={(primary) => update({ primary })}
      />
      <ColourField
        label={t('themeSettings.secondary')}
        value={settings.secondary}
        onChange={(secondary) => update({ secondary })}
      />
    </>
  );
}
