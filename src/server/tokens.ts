/**
 * The API tokens a server knows. By default they are derived from the dataset
 * and seed, so tests and scripts can rely on them across restarts; the app's
 * demo asks for random ones. Both look like real tokens (43 characters of base64url).
 */
import { createHash, randomBytes } from 'node:crypto';
import { FEATURE_MODULE_ID, OTHER_CUSTOMER, OUR_CUSTOMER, type DatasetName } from './datasets.ts';

export type TokenAccessLevel = 'full' | 'readonly' | 'feature' | 'other-customer';

export interface TokenInfo {
  token: string;
  access: TokenAccessLevel;
  accessmoduleid?: number;
}

/** What a token may do, as the request handlers see it. */
export interface Caller {
  access: TokenAccessLevel;
  customerid: number;
  /** only for the feature-limited token */
  accessmoduleid?: number;
}

const LEVELS: readonly TokenAccessLevel[] = ['full', 'readonly', 'feature', 'other-customer'];

export function deriveTokens(dataset: DatasetName, seed: number): TokenInfo[] {
  return LEVELS.map((access) => {
    const token = createHash('sha256')
      .update(`fieldbook-reference-server:${dataset}:${seed}:${access}`)
      .digest('base64url');
    return access === 'feature' ? { token, access, accessmoduleid: FEATURE_MODULE_ID } : { token, access };
  });
}

/** Fresh tokens for one run (the app's demo): nothing outside this process can know them. */
export function randomTokens(): TokenInfo[] {
  return LEVELS.map((access) => {
    const token = randomBytes(32).toString('base64url');
    return access === 'feature' ? { token, access, accessmoduleid: FEATURE_MODULE_ID } : { token, access };
  });
}

export function callerOf(info: TokenInfo): Caller {
  const customerid = info.access === 'other-customer' ? OTHER_CUSTOMER : OUR_CUSTOMER;
  return info.accessmoduleid === undefined
    ? { access: info.access, customerid }
    : { access: info.access, customerid, accessmoduleid: info.accessmoduleid };
}
