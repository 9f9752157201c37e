import { MIN_COPYRIGHT_YEAR } from '@gatehouse/contracts';

/** The copyright year: the current one, never below 2024 (spec §1, §9). */
export function copyrightYear(now: Date = new Date()): number {
  return Math.max(now.getFullYear(), MIN_COPYRIGHT_YEAR);
}
