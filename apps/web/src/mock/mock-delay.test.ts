import { describe, expect, it } from 'vitest';
import { MOCK_DELAY_MS } from './http';
import { serveMockApi } from './test-client';

const { callOk } = serveMockApi(MOCK_DELAY_MS);

describe('mock API delay', () => {
  it('answers after 200 ms, as spec §9 asks of mock data', async () => {
    expect(MOCK_DELAY_MS).toBe(200);
    const started = performance.now();
    await callOk('metadata');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });
});
