/** Query keys more than one feature touches: a change anywhere refreshes the navigation counts. */
export const QUERY_KEYS = {
  navigationCounts: ['system', 'navigation-counts'],
} as const;
