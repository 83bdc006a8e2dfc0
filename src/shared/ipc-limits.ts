/** No message across the IPC boundary may exceed this (pages and fingerprints are sized to fit). */
export const MAX_IPC_MESSAGE_BYTES = 1_000_000;
