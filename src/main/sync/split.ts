/**
 * Keeping every IPC message under the size limit: a page whose records would
 * not fit in one message is split into consecutive chunks. Pure.
 *
 * Measured exactly (one JSON.stringify per page, about 1 µs per record): an
 * estimate from a sample would miss one huge record among small ones.
 */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * Splits `records` into consecutive chunks whose JSON fits in `maxBytes`
 * (halving until it fits). A single record larger than the limit stays alone
 * in its chunk: it cannot be split further.
 */
export function splitBySize<T>(
  records: T[],
  maxBytes: number,
  measure: (chunk: T[]) => number = jsonBytes,
): T[][] {
  if (records.length <= 1 || measure(records) <= maxBytes) return [records];
  const half = Math.ceil(records.length / 2);
  return [
    ...splitBySize(records.slice(0, half), maxBytes, measure),
    ...splitBySize(records.slice(half), maxBytes, measure),
  ];
}

/**
 * A collection's records split as `splitBySize` does, each chunk still paired with its collection (a `PageRecords`).
 */
export function splitBatch<B extends { records: unknown[] }>(batch: B, maxBytes: number): B[] {
  return splitBySize(batch.records, maxBytes).map((records) => ({ ...batch, records }));
}
