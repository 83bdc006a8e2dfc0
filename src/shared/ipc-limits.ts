/** No message across the IPC boundary may exceed this (pages and fingerprints are sized to fit). */
export const MAX_IPC_MESSAGE_BYTES = 1_000_000;

/**
 * Pages one `sync:ack` acknowledges at most. Here, not in ipc.ts: the renderer
 * imports it at start-up, and ipc.ts builds zod schemas as it loads (before the
 * renderer has turned zod's JIT off, its probe is a CSP violation: app/zod-csp.ts).
 */
export const MAX_ACKS_PER_MESSAGE = 1_000;

/**
 * No text of a record from the platform (a value or a field's name) may be
 * longer than this many characters: a record holding one is not read, and its
 * page fails as a malformed one (stored nowhere, prunes nothing). Far above
 * any name, address or note (a database's TEXT column holds 65,535 bytes), and
 * small enough that one such text, however escaped, fits in one IPC message.
 */
export const MAX_FIELD_CHARS = 100_000;
