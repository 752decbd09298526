import type { Runtime } from './clock.js';
import { compactDate } from './clock.js';
import { normalizeText, sha256 } from './text.js';

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

export const SID_PATTERN = /^S-\d{8}-[a-z0-9]+$/;
export const CANDIDATE_ID_PATTERN = /^KDC-[a-f0-9]{16}$/;

/** `n` random base-36 characters drawn from the runtime. */
export function randomBase36(runtime: Runtime, n: number): string {
  const bytes = runtime.randomBytes(n);
  let out = '';
  for (const b of bytes) out += BASE36[b % 36];
  return out;
}

/**
 * A new sid `S-YYYYMMDD-xxxx` that is not in `taken`. Four base-36 characters give 1.7M ids a
 * day; on a clash we draw again, and after a few clashes widen the suffix.
 */
export function newSid(runtime: Runtime, taken: Pick<ReadonlySet<string>, 'has'>): string {
  const day = compactDate(runtime.now());
  for (let attempt = 0; attempt < 64; attempt++) {
    const width = attempt < 16 ? 4 : 6;
    const sid = `S-${day}-${randomBase36(runtime, width)}`;
    if (!taken.has(sid)) return sid;
  }
  throw new Error('could not draw an unused sid after 64 attempts');
}

export type KnowledgeTarget = 'spec' | 'knowhow';

/** `KDC-` + 16 hex of sha256(target, NUL, normalised content). The title is not part of it. */
export function candidateId(target: KnowledgeTarget, content: string): string {
  return `KDC-${sha256(`${target}\u0000${normalizeText(content)}`).slice(0, 16)}`;
}

/** Short deterministic id: `prefix` + the first `n` hex of sha256 of the parts joined with NUL. */
export function derivedId(prefix: string, parts: readonly string[], n = 10): string {
  return `${prefix}${sha256(parts.join('\u0000')).slice(0, n)}`;
}
