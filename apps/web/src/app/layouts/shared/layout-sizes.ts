// The layout sizes of spec §9, per breakpoint, in the form MUI's responsive sx values take.

/** Sidebar width: 19rem, 21.6rem on xl. */
export const SIDEBAR_WIDTH = { xs: '19rem', xl: '21.6rem' } as const;
/** The mini sidebar's icon rail: 4rem, 5rem on xl. */
export const MINI_SIDEBAR_WIDTH = { xs: '4rem', xl: '5rem' } as const;
/** The width a mini rail expands to on hover (or focus): 21.6rem. */
export const MINI_EXPANDED_WIDTH = '21.6rem';
/** The bit-bucket layout's icon bar, all that shows while its sidebar is collapsed: 4.3rem. */
export const BIT_BUCKET_COLLAPSED_WIDTH = '4.3rem';
/** Boxed layout maximum width: 1260 px, 1680 on xl. */
export const BOXED_MAX_WIDTH = { xs: 1260, xl: 1680 } as const;
/** Content width of the horizontal layouts: 1140 px, 1720 on xl. */
export const HORIZONTAL_MAX_WIDTH = { xs: 1140, xl: 1720 } as const;
/** Header height: 56 px, 70 from sm. */
export const HEADER_HEIGHT = { xs: 56, sm: 70 } as const;
/** Fixed footer height: about 48 px, 58 on xl. */
export const FIXED_FOOTER_HEIGHT = { xs: 48, xl: 58 } as const;
/**
 * Content padding, the spec's grid spacing of 4 below md and 8 from md in its 4 px unit:
 * 16 px and 32 px (MUI's unit is 8 px).
 */
export const CONTENT_PADDING = { xs: 2, md: 4 } as const;
/** Mini rail and drawer animations. */
export const RAIL_TRANSITION = 'width 200ms ease, box-shadow 200ms ease';
