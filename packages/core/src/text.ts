import { hash } from 'node:crypto';

/**
 * The one text normaliser: Unicode NFKC, lower case, every whitespace run collapsed to a single
 * space, trimmed. Candidate identity, exact-duplicate detection, fingerprints and audit all use it,
 * so two texts are "the same" in exactly one sense everywhere.
 */
export function normalizeText(text: string): string {
  // ASCII is already in NFKC form; skipping the ICU call makes corpus parsing markedly faster.
  const nfkc = ASCII.test(text) ? text : text.normalize('NFKC');
  return nfkc.toLowerCase().replace(WHITESPACE_TO_COLLAPSE, ' ').trim();
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Every whitespace run that is not already one plain space: a run of two or more, or a single
 * other whitespace character (tab, newline, NBSP, ...). Replacing these with ' ' is the same as
 * collapsing every run, but leaves single spaces unmatched: prose has one per word, and matching
 * each of them made this the costliest step of a corpus parse. (`\s` is the same set with or
 * without the `u` flag.)
 */
const WHITESPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

export function sha256(data: string | Uint8Array): string {
  // One-shot hash: no Hash object per call (corpus parsing hashes every entry once or twice).
  return hash('sha256', data, 'hex');
}

/** The one content hash: sha256 of the normalised text. */
export function contentHash(text: string): string {
  return sha256(normalizeText(text));
}

/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, `undefined` members dropped.
 * Used wherever a hash of structured data must not depend on key order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value !== null && typeof value === 'object') {
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input).sort()) {
      if (input[key] !== undefined) out[key] = sortKeys(input[key]);
    }
    return out;
  }
  return value;
}

export function hashJson(value: unknown): string {
  return sha256(canonicalJson(value));
}

/** Lower-case ASCII slug: every run of characters outside [a-z0-9] becomes one dash. */
export function slugify(text: string, maxLength = 64): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/g, '');
}
