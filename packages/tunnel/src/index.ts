export * from './frames.js';
export * from './mux-stream.js';
export * from './ws-duplex.js';
export * from './no-delay.js';
export * from './trace.js';
export * from './mask-options.js';
