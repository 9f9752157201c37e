import { darken, getContrastRatio, lighten } from '@mui/material/styles';

// WCAG AA asks 4.5:1 for text; aiming a little higher absorbs the rounding of other checkers
// (axe-core finds the spec's #0078D7 under white at 4.49 where MUI computes 4.51).
const TARGET = 4.6;

/**
 * A colour that carries white text: unchanged when it already does, otherwise darkened by the
 * least step that reaches the target. Colours too light for white text (under 3:1, where MUI
 * writes black on them) are left as they are.
 */
export function withWhiteText(colour: string): string {
  const ratio = getContrastRatio('#ffffff', colour);
  if (ratio >= TARGET || ratio < 3) return colour;
  for (let step = 1; step <= 40; step += 1) {
    const candidate = darken(colour, step / 200);
    if (getContrastRatio('#ffffff', candidate) >= TARGET) return candidate;
  }
  return darken(colour, 0.2);
}

/**
 * The colour lightened just enough to read as text on a dark background and on that background
 * tinted by a selection or hover (checked against a 15 % lighter shade of it).
 */
export function readableOnDark(colour: string, background: string): string {
  const worst = lighten(background, 0.15);
  for (let step = 0; step <= 20; step += 1) {
    const candidate = step === 0 ? colour : lighten(colour, step / 20);
    if (getContrastRatio(candidate, worst) >= TARGET) return candidate;
  }
  return '#ffffff';
}

/**
 * The colour darkened just enough to read as text on a light background and on that background
 * tinted by a selection (checked against a 7 % darker shade of it).
 */
export function readableOnLight(colour: string, background: string): string {
  const worst = darken(background, 0.07);
  for (let step = 0; step <= 40; step += 1) {
    const candidate = step === 0 ? colour : darken(colour, step / 100);
    if (getContrastRatio(candidate, worst) >= TARGET) return candidate;
  }
  return '#000000';
}

/**
 * Status colours that read as text on their mode's backgrounds (4.5:1 on white and on a light
 * grey tint; on the dark paper and the dark sidebar): MUI's light warning and info, and its dark
 * error, fall short.
 */
export const STATUS_COLOURS = {
  light: { error: '#c62828', warning: '#b45309', info: '#01579b', success: '#2e7d32' },
  dark: { error: '#ff6b6b', warning: '#ffa726', info: '#29b6f6', success: '#66bb6a' },
} as const;
