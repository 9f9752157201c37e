import type { RouteName } from '@gatehouse/contracts';
import type { RouteRef } from '../../../lib/api-routes';

/** The recording calls the players make, checked against the contract like lib/api-routes. */
export const PLAYER_API = {
  getRecordingDetail: { name: 'getRecordingDetail', method: 'GET', path: '/api/recording/{id}/data' },
  playbackAvailable: { name: 'playbackAvailable', method: 'GET', path: '/api/recording/{id}/playback_available' },
  openRecording: { name: 'openRecording', method: 'POST', path: '/api/recording/{id}/ticket' },
  getRecordingCast: { name: 'getRecordingCast', method: 'GET', path: '/api/recording/{id}/cast' },
  getRecordingVideo: { name: 'getRecordingVideo', method: 'GET', path: '/api/recording/{id}/video' },
  getRecordingBundle: { name: 'getRecordingBundle', method: 'GET', path: '/api/recording/{id}/bundle' },
  seekRecording: { name: 'seekRecording', method: 'GET', path: '/api/recording/{id}/seek' },
  searchRecording: { name: 'searchRecording', method: 'GET', path: '/api/recording/{id}/search' },
  verifyRecording: { name: 'verifyRecording', method: 'GET', path: '/api/recording/{id}/verify' },
  listRecordingTransfers: { name: 'listRecordingTransfers', method: 'GET', path: '/api/recording/{id}/transfers' },
} as const satisfies { [K in RouteName]?: RouteRef<K> };

/** Query keys of the players. */
export const PLAYER_KEYS = {
  detail: (id: string) => ['player', id, 'detail'] as const,
  integrity: (id: string) => ['player', id, 'integrity'] as const,
  search: (id: string, q: string) => ['player', id, 'search', q] as const,
  playback: (id: string) => ['player', id, 'playback'] as const,
  transfers: (id: string) => ['player', id, 'transfers'] as const,
};
