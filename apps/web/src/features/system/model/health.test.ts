import { describe, expect, it } from 'vitest';
import { healthSummary } from './health';

const pods = (...statuses: string[]) => statuses.map((status, i) => ({ name: `c${i}`, status }));

describe('healthSummary (spec §4)', () => {
  it('is Healthy when every component is Running', () => {
    expect(healthSummary(pods('Running', 'Running'))).toEqual({ summary: 'Healthy', unhealthy: 0 });
    expect(healthSummary([])).toEqual({ summary: 'Healthy', unhealthy: 0 });
  });

  it('is Problem with one component not Running, Unknown included', () => {
    expect(healthSummary(pods('Running', 'Unknown'))).toEqual({ summary: 'Problem', unhealthy: 1 });
  });

  it('is Problems with more than one, counting each', () => {
    expect(healthSummary(pods('Failed', 'Running', 'Unknown', 'Failed'))).toEqual({
      summary: 'Problems',
      unhealthy: 3,
    });
  });
});
