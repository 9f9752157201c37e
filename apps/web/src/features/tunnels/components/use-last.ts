import { useState } from 'react';

/**
 * The value, or while it is null the last value it had: a dialog closing because its object
 * went null keeps showing that object through its closing transition.
 */
export function useLast<T>(value: T | null): T | null {
  const [last, setLast] = useState<T | null>(value);
  if (value !== null && value !== last) setLast(value);
  return value ?? last;
}
