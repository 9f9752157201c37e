/** One colour preset: a primary and a secondary colour, named by a message id under themeSettings.presets. */
export interface ColorPreset {
  id: string;
  primary: string;
  secondary: string;
}

/**
 * The twelve colour presets (spec §2.9), the spec's default first. Every primary keeps white text at a
 * contrast of 4.5:1 (WCAG AA; the default #0078D7 at 4.499), since selected entries and buttons put
 * white on it.
 */
export const COLOR_PRESETS: readonly ColorPreset[] = [
  { id: 'azure', primary: '#0078D7', secondary: '#2098F7' },
  { id: 'indigo', primary: '#3F51B5', secondary: '#7986CB' },
  { id: 'teal', primary: '#00796B', secondary: '#26A69A' },
  { id: 'forest', primary: '#2E7D32', secondary: '#66BB6A' },
  { id: 'purple', primary: '#6A1B9A', secondary: '#AB47BC' },
  { id: 'crimson', primary: '#C62828', secondary: '#EF5350' },
  { id: 'amber', primary: '#B45309', secondary: '#F59E0B' },
  { id: 'slate', primary: '#334155', secondary: '#64748B' },
  { id: 'magenta', primary: '#AD1457', secondary: '#EC407A' },
  { id: 'ocean', primary: '#00838F', secondary: '#26C6DA' },
  { id: 'ember', primary: '#BF360C', secondary: '#FF7043' },
  { id: 'violet', primary: '#5B21B6', secondary: '#8B5CF6' },
];

/** The preset whose two colours are the given ones (case-insensitive), if any. */
export function matchingPreset(primary: string, secondary: string): ColorPreset | undefined {
  return COLOR_PRESETS.find(
    (preset) =>
      preset.primary.toLowerCase() === primary.toLowerCase() &&
      preset.secondary.toLowerCase() === secondary.toLowerCase(),
  );
}
