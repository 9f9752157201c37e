/**
 * The session players, loaded lazily (they bring xterm.js): import this module only through
 * React.lazy or lazyPage, never statically from app code.
 */
export { LiveView } from './components/live-view';
export { ReplayPlayer, type PlayableRecording } from './components/replay-player';
export { VideoPlayer } from './components/video-player';
export { PlayerPage } from './player-page';
export { default } from './player-page';
