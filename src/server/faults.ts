/**
 * Fault injection for reliability tests: added latency, a share of 500/503
 * answers, dropped connections, writes that commit but whose answer is lost,
 * and 429 beyond a number of requests in flight per token. Off by default;
 * decisions come from a seeded PRNG so a run can be replayed.
 */
import { seededRng, type Rng } from './rng.ts';

export interface FaultSpec {
  latencyMs: number;
  /** share of requests answered 500 or 503 (before anything is done) */
  errorRate: number;
  /** share of requests whose connection is destroyed before answering (nothing is done) */
  dropRate: number;
  /** share of successful writes that commit, then the connection is destroyed */
  lostResponseRate: number;
  /** 0 = unlimited; beyond it: 429 + Retry-After */
  maxInFlightPerToken: number;
  retryAfterSeconds: number;
  seed: number;
}

export const NO_FAULTS: FaultSpec = {
  latencyMs: 0,
  errorRate: 0,
  dropRate: 0,
  lostResponseRate: 0,
  maxInFlightPerToken: 0,
  retryAfterSeconds: 1,
  seed: 1,
};

const CLI_KEYS: Record<string, keyof FaultSpec> = {
  latency: 'latencyMs',
  error: 'errorRate',
  drop: 'dropRate',
  lost: 'lostResponseRate',
  inflight: 'maxInFlightPerToken',
  retryafter: 'retryAfterSeconds',
  seed: 'seed',
};

/** `latency=20,error=0.1,drop=0.05,lost=0.05,inflight=4,retryafter=1` -> a partial spec. */
export function parseFaultSpec(text: string): Partial<FaultSpec> {
  const out: Partial<FaultSpec> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [rawKey, rawValue] = part.split('=').map((s) => s.trim());
    const key = CLI_KEYS[rawKey?.toLowerCase() ?? ''];
    const value = Number(rawValue);
    if (!key || rawValue === undefined || rawValue === '' || !Number.isFinite(value) || value < 0) {
      throw new Error(
        `Bad fault setting "${part}": expected one of ${Object.keys(CLI_KEYS).join(', ')} with a number >= 0`,
      );
    }
    out[key] = value;
  }
  return checkFaults(out);
}

/** Rates are shares in [0, 1]; every value a finite number >= 0. */
export function checkFaults(f: Partial<FaultSpec>): Partial<FaultSpec> {
  for (const [key, value] of Object.entries(f)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new Error(`${key} must be a number >= 0`);
    if (key.endsWith('Rate') && value > 1) throw new Error(`${key} must be between 0 and 1`);
  }
  return f;
}

export type PreFault = 'drop' | 500 | 503 | null;

export class FaultInjector {
  private current: FaultSpec;
  private rng: Rng;
  private readonly inFlight = new Map<string, number>();

  constructor(spec: Partial<FaultSpec> = {}) {
    this.current = { ...NO_FAULTS, ...checkFaults(spec) };
    this.rng = seededRng(this.current.seed);
  }

  get spec(): FaultSpec {
    return { ...this.current };
  }

  set(partial: Partial<FaultSpec>): void {
    this.current = { ...this.current, ...checkFaults(partial) };
    if (partial.seed !== undefined) this.rng = seededRng(this.current.seed);
  }

  /** Counts a request in; false when the token is already at its limit (answer 429). */
  enter(tokenKey: string): boolean {
    const n = this.inFlight.get(tokenKey) ?? 0;
    if (this.current.maxInFlightPerToken > 0 && n >= this.current.maxInFlightPerToken) return false;
    this.inFlight.set(tokenKey, n + 1);
    return true;
  }

  leave(tokenKey: string): void {
    const n = (this.inFlight.get(tokenKey) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(tokenKey);
    else this.inFlight.set(tokenKey, n);
  }

  /** What happens to a request before it is handled. */
  before(): PreFault {
    const { dropRate, errorRate } = this.current;
    if (dropRate > 0 && this.rng.chance(dropRate)) return 'drop';
    if (errorRate > 0 && this.rng.chance(errorRate)) return this.rng.chance(0.5) ? 500 : 503;
    return null;
  }

  /** Whether a committed write's answer is lost. */
  loseAnswer(): boolean {
    return this.current.lostResponseRate > 0 && this.rng.chance(this.current.lostResponseRate);
  }
}
