import { randomBytes } from 'node:crypto';

/**
 * Time and randomness are injected so that receipts, replays and tests are byte-stable.
 * Everything that stamps a time or draws an id takes a `Runtime`.
 */
export interface Runtime {
  now(): Date;
  /** `n` random bytes. */
  randomBytes(n: number): Uint8Array;
}

export const systemRuntime: Runtime = {
  now: () => new Date(),
  randomBytes: (n) => randomBytes(n),
};

/**
 * A deterministic runtime: the clock starts at `start` and advances `stepMs` per call; random
 * bytes come from a seeded xorshift generator.
 */
export function fixedRuntime(start: Date | string, options: { stepMs?: number; seed?: number } = {}): Runtime {
  let t = new Date(start).getTime();
  const step = options.stepMs ?? 0;
  let state = (options.seed ?? 0x9e3779b9) >>> 0 || 1;
  return {
    now: () => {
      const d = new Date(t);
      t += step;
      return d;
    },
    randomBytes: (n) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        out[i] = state & 0xff;
      }
      return out;
    },
  };
}

/**
 * The runtime for a process: the system one, unless `MAESTRO_NOW` (an ISO time) pins the clock,
 * which the CLI honours so that end-to-end tests can produce stable receipts.
 */
export function runtimeFromEnv(env: NodeJS.ProcessEnv = process.env): Runtime {
  const now = env.MAESTRO_NOW;
  if (!now) return systemRuntime;
  const t = new Date(now);
  if (Number.isNaN(t.getTime())) return systemRuntime;
  return { now: () => new Date(t), randomBytes: systemRuntime.randomBytes };
}

/** `YYYY-MM-DD` of a date in UTC. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** `YYYYMMDD` of a date in UTC. */
export function compactDate(d: Date): string {
  return isoDate(d).replaceAll('-', '');
}
