import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { applyClusterUpdate, podsOfUpdate } from './cluster-updates';
import { SYSTEM_KEYS } from './system-routes';

const pod = (name: string, status: string) => ({ name, status, detail: 'checked', checked_at: '2026-11-22T03:45:21Z' });

describe('the cluster status socket update', () => {
  it('puts the components on the status screen and their summary in the navigation counts', () => {
    const client = new QueryClient();
    client.setQueryData(QUERY_KEYS.navigationCounts, {
      totalUsers: 3,
      systemStatusHealthSummary: 'Healthy',
      totalUnhealthyPods: 0,
    });
    const pods = [pod('api', 'Running'), pod('database', 'Failed'), pod('gateway', 'Unknown')];
    applyClusterUpdate(client, { pods, summary: 'Problems', unhealthy: 2 });
    expect(client.getQueryData(SYSTEM_KEYS.pods)).toEqual({ pods });
    expect(client.getQueryData(QUERY_KEYS.navigationCounts)).toEqual({
      totalUsers: 3,
      systemStatusHealthSummary: 'Problems',
      totalUnhealthyPods: 2,
    });
  });

  it('does not invent navigation counts that were never loaded', () => {
    const client = new QueryClient();
    applyClusterUpdate(client, { pods: [pod('api', 'Running')] });
    expect(client.getQueryData(QUERY_KEYS.navigationCounts)).toBeUndefined();
    expect(client.getQueryData(SYSTEM_KEYS.pods)).toEqual({ pods: [pod('api', 'Running')] });
  });

  it('makes both load again when an update has another shape', async () => {
    const client = new QueryClient();
    client.setQueryData(SYSTEM_KEYS.pods, { pods: [pod('api', 'Running')] });
    client.setQueryData(QUERY_KEYS.navigationCounts, { totalUsers: 1 });
    applyClusterUpdate(client, { pods: [{ name: 'api', status: 'Sleeping' }] });
    await Promise.resolve();
    expect(client.getQueryState(SYSTEM_KEYS.pods)?.isInvalidated).toBe(true);
    expect(client.getQueryState(QUERY_KEYS.navigationCounts)?.isInvalidated).toBe(true);
    expect(client.getQueryData(SYSTEM_KEYS.pods)).toEqual({ pods: [pod('api', 'Running')] });
  });

  it('accepts only the documented shape', () => {
    expect(podsOfUpdate(null)).toBeNull();
    expect(podsOfUpdate({ pods: 'api' })).toBeNull();
    expect(podsOfUpdate({ pods: [{ ...pod('api', 'Running'), detail: 3 }] })).toBeNull();
    expect(podsOfUpdate({ pods: [] })).toEqual([]);
  });
});
