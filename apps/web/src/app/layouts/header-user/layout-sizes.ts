/** Sidebar width (spec §9): 19rem, 21.6rem on xl. */
export const SIDEBAR_WIDTH = { xs: '19rem', xl: '21.6rem' } as const;
/** Header height (spec §9): 56 px, 70 from sm. */
export const HEADER_HEIGHT = { xs: 56, sm: 70 } as const;
