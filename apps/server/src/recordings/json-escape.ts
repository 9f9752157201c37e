/**
 * The recorder's JSON escaper for ASCII output (json-escape.wat), compiled to WebAssembly with
 * SIMD: V8's JSON.stringify took 3.0-4.1 ms of the recorder's thread per MiB of terminal output,
 * this takes 0.25-0.8 with the copy into its memory (docs/benchmarks.md, "The recorder's JSON").
 * Its output is JSON.stringify's, byte for byte (json-escape.test.ts). Rebuilt from the .wat with
 * `node scripts/json-escape-wasm.mjs`, which rewrites this constant; the test fails when they differ.
 */
export const JSON_ESCAPE_WASM =
  'AGFzbQEAAAABDgJgAn9/AX9gA39/fwF/Ag8BA2VudgZtZW1vcnkCAAEDAwIAAQcKAQZlc2NhcGUAAQqIAwKvAQEBfyAAQSJGBEBB3MQAIQILIABB3ABGBEBB3LgBIQILIABBCEYEQEHcxAEhAgsgAEEJRgRAQdzoASECCyAAQQpGBEBB3NwBIQILIABBDEYEQEHczAEhAgsgAEENRgRAQdzkASECCyACBEAgASACOwAAIAFBAmoPCyABQdzqwYEDNgAAIAFBMCAAQQR2ajoABCABIABBD3FBMEHXACAAQQ9xQQpJG2o6AAUgAUEGagvUAQMBfwF7An8gACABaiEDAkADQCAAQRBqIANLDQEgAP0AAAAhBCAEQSD9D/0mIARBIv0P/SMgBEHcAP0P/SP9UP1Q/WQhBSACIAT9CwAAIAVFBEAgAEEQaiEAIAJBEGohAgwBCyAFaCEGIAAgBmohACAALQAAIAIgBmoQACECIABBAWohAAwACwsCQANAIAAgA08NASAALQAAIQYgBkEgSSAGQSJGIAZB3ABGcnIEQCAGIAIQACECBSACIAY6AAAgAkEBaiECCyAAQQFqIQAMAAsLIAIL';
