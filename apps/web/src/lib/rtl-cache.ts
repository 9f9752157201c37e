import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';

let loaded: EmotionCache | undefined;
let loading: Promise<EmotionCache> | undefined;

/** The right-to-left style cache, once loadRtlCache has brought it. */
export function rtlCache(): EmotionCache | undefined {
  return loaded;
}

/**
 * Right to left, every style MUI and the console write is mirrored by the stylis RTL plugin
 * (margins, paddings, positions, borders), as MUI's RTL guide prescribes. The plugin and cssjanus
 * under it are fetched when a right-to-left language or layout is first chosen (i18n.ts, main.tsx,
 * ThemeSettingsProvider), so left-to-right consoles never load them. Fetched once; again after a
 * failure.
 */
export function loadRtlCache(): Promise<EmotionCache> {
  if (!loading) {
    loading = import('stylis-plugin-rtl').then(
      ({ default: rtlPlugin }) => (loaded = createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] })),
    );
    loading.catch(() => (loading = undefined));
  }
  return loading;
}
