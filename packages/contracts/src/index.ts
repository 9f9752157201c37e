export * from './limits.js';
export * from './permissions.js';
export * from './route.js';
export * from './routes/index.js';
export * from './openapi.js';
export * from './agent-protocol.js';
export * from './socket-events.js';
export * from './routes/desktop.js';
