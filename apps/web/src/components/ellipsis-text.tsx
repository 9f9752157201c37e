import Typography from '@mui/material/Typography';
import type { TypographyProps } from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';

/** Props of EllipsisText: Typography's, with the text itself as the one child. */
export type EllipsisTextProps = Omit<TypographyProps<'span'>, 'children' | 'title'> & {
  /** The whole text: shown cut with an ellipsis where it must be, and always whole as the title. */
  text: string;
  /** True for emails, host names and identifiers: read left to right in every language. */
  ltr?: boolean;
};

/**
 * One line of text cut with an ellipsis when its box is too narrow, carrying its whole text as a
 * title (tooltip), so nothing is ever clipped out of reach (issue 20). The one way the console
 * cuts a line: use it instead of a case-by-case noWrap and title.
 */
export function EllipsisText({ text, ltr = false, sx, ...rest }: EllipsisTextProps) {
  return (
    <Typography
      component="span"
      variant="inherit"
      noWrap
      title={text}
      dir={ltr ? 'ltr' : undefined}
      {...rest}
      sx={
        [
          { minWidth: 0, maxWidth: '100%' },
          ...(Array.isArray(sx) ? (sx as readonly SxProps<Theme>[]) : [sx]),
        ] as SxProps<Theme>
      }
    >
      {text}
    </Typography>
  );
}
