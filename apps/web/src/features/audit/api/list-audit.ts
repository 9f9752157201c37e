import type { AuditFilters, ResponseOf, Routes } from '@gatehouse/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { AUDIT_API, AUDIT_KEYS } from './audit-routes';

/** One page of entries as the server answers it. */
export type AuditPage = ResponseOf<Routes['auditList']>;
/** One entry. */
export type AuditRow = AuditPage['entries'][number];

/** The filters of the screen, as typed (text) and chosen; empty means any. */
export interface AuditScreenFilters {
  q: string;
  actor: string;
  action: string;
  outcome: '' | AuditRow['outcome'];
  target: string;
  /** datetime-local values (the browser's time zone), or ''. */
  from: string;
  to: string;
  order: 'desc' | 'asc';
}

/** Filters as a new visitor gets them. */
export const NO_FILTERS: AuditScreenFilters = {
  q: '',
  actor: '',
  action: '',
  outcome: '',
  target: '',
  from: '',
  to: '',
  order: 'desc',
};

/** A datetime-local value as an ISO instant, or undefined when empty or not a date. */
function instant(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** The query values the list and the export share. */
export function filterQuery(filters: AuditScreenFilters): Record<string, string | undefined> {
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const query: Partial<Record<keyof AuditFilters, string | undefined>> = {
    q: text(filters.q),
    actor: text(filters.actor),
    action: text(filters.action),
    outcome: filters.outcome || undefined,
    target: text(filters.target),
    from: instant(filters.from),
    to: instant(filters.to),
    order: filters.order === 'asc' ? 'asc' : undefined,
  };
  return query;
}

/** GET api/audit for one page; the previous page stays on screen while the next loads. */
export function useAuditList(filters: AuditScreenFilters, pageSize: number, cursor: string | undefined) {
  return useQuery({
    queryKey: [...AUDIT_KEYS.list, filters, pageSize, cursor],
    queryFn: ({ signal }) =>
      apiCall(AUDIT_API.auditList, { query: { ...filterQuery(filters), limit: String(pageSize), cursor }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET api/audit/actions: the choices of the action filter. */
export function useAuditActions() {
  return useQuery({
    queryKey: AUDIT_KEYS.actions,
    queryFn: ({ signal }) => apiCall(AUDIT_API.auditActions, { signal }),
    staleTime: 60_000,
  });
}
