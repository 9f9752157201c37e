import Box from '@mui/material/Box';

/** A search hit's text and where its match lies (as both searches of recordings answer it). */
export interface SnippetParts {
  text: string;
  matchStart: number;
  matchLength: number;
  /** The line goes on before / after the text: an ellipsis says so. */
  clippedStart: boolean;
  clippedEnd: boolean;
}

/**
 * A search hit with its match in a <mark>. The recorded text is passed to React as text, never as
 * HTML, so a recording that printed markup (<img onerror=…>) shows that markup as characters.
 */
export function HighlightedSnippet({ text, matchStart, matchLength, clippedStart, clippedEnd }: SnippetParts) {
  const start = Math.min(Math.max(0, matchStart), text.length);
  const end = Math.min(text.length, start + Math.max(0, matchLength));
  return (
    <Box
      component="span"
      dir="ltr"
      data-testid="hit-snippet"
      sx={{ fontFamily: 'monospace', fontSize: '0.875rem', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
    >
      {clippedStart ? '… ' : null}
      {text.slice(0, start)}
      {end > start ? (
        <Box component="mark" sx={{ bgcolor: 'warning.light', color: 'common.black', px: 0.25, borderRadius: 0.5 }}>
          {text.slice(start, end)}
        </Box>
      ) : null}
      {text.slice(end)}
      {clippedEnd ? ' …' : null}
    </Box>
  );
}
