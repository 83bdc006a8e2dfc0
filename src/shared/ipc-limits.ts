/** No message across the IPC boundary may exceed this (pages and fingerprints are sized to fit). */
export const MAX_IPC_MESSAGE_BYTES = 1_000_000;

/**
 * Pages one `sync:ack` acknowledges at most. Here, not in ipc.ts: the renderer
 * imports it at start-up, and ipc.ts builds zod schemas as it loads (before the
 * renderer has turned zod's JIT off, its probe is a CSP violation: app/zod-csp.ts).
 */
export const MAX_ACKS_PER_MESSAGE = 1_000;
