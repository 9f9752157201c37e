/** Lower case without accents, with runs of white space made one, for matching typed searches. */
export function normaliseSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** True when every word of the query occurs in at least one of the texts (an empty query matches). */
export function matchesSearch(query: string, texts: readonly string[]): boolean {
  const words = normaliseSearch(query).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = texts.map(normaliseSearch);
  return words.every((word) => haystack.some((text) => text.includes(word)));
}

/** The rows whose searchable texts match the query, in their order. */
export function filterRows<R>(rows: readonly R[], query: string, textsOf: (row: R) => readonly string[]): R[] {
  return rows.filter((row) => matchesSearch(query, textsOf(row)));
}
