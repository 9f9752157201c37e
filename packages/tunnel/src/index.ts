export * from './frames.js';
export * from './mux-stream.js';
