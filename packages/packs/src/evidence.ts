import type { EvidenceCandidate } from './candidates.js';
import { tryReadHead } from './frontmatter.js';
import { READ_CAP_BYTES, SOURCE_MAP_CAP_BYTES } from './limits.js';
import { resolvePackPath } from './paths.js';
import { SourceMap } from './standard-schemas.js';
import { matchScore, termIndex } from './tokens.js';

const MAX_CLAIMS = 500;
const MAX_EXCERPT_LINES = 20;
const MAX_EXCERPT_CHARS = 2000;

/**
 * Evidence tier: anchors from `indexes/source-map.json` (used only to find candidates, never as
 * fact authority) and the anchored lines of the source they point at. A source is read at most
 * 256 KB deep, so an anchor beyond that (or with no line range) is given as an anchor only; a
 * source is never loaded whole.
 */
export function readEvidence(realRoot: string, queryTerms: readonly string[], warnings: string[]): EvidenceCandidate[] {
  const map = resolvePackPath(realRoot, 'indexes/source-map.json');
  if (!map.ok || map.real === null) {
    warnings.push('the request asks for evidence but the pack has no indexes/source-map.json; sources/ is not loaded');
    return [];
  }
  const head = tryReadHead(map.real, SOURCE_MAP_CAP_BYTES);
  if (head === null) {
    warnings.push('indexes/source-map.json is not a readable regular file; no evidence anchors used');
    return [];
  }
  if (head.truncated) {
    warnings.push(`indexes/source-map.json is over ${SOURCE_MAP_CAP_BYTES / 1048576} MB; no evidence anchors used`);
    return [];
  }
  let parsed: ReturnType<typeof SourceMap.safeParse>;
  try {
    parsed = SourceMap.safeParse(JSON.parse(head.text.replace(/^\uFEFF/, '')));
  } catch {
    warnings.push('indexes/source-map.json is not valid JSON; no evidence anchors used (run `maestro pack validate`)');
    return [];
  }
  if (!parsed.success) {
    warnings.push('indexes/source-map.json does not match the source-map schema; no evidence anchors used');
    return [];
  }
  const out: EvidenceCandidate[] = [];
  for (const claim of parsed.data.claims.slice(0, MAX_CLAIMS)) {
    const source = resolvePackPath(realRoot, claim.source.path);
    if (!source.ok) {
      warnings.push(`claim ${claim.claim_id}: ${source.message}; not read`);
      continue;
    }
    if (source.real === null) continue;
    const anchor = claim.source.anchor ? claim.source.anchor.replace(/^#/, '') : '';
    const excerpt = anchor ? excerptLines(source.real, anchor) : null;
    out.push({
      anchor: anchor ? `${source.rel}#${anchor}` : source.rel,
      excerpt,
      supports: [...(claim.compiled_into ?? []), ...(claim.document ? [claim.document] : [])],
      score: matchScore(queryTerms, termIndex(`${claim.text} ${excerpt ?? ''}`)),
    });
  }
  return out;
}

/** Lines `L12` or `L12-L20` of a file, read no further than the read cap; null otherwise. */
function excerptLines(real: string, anchor: string): string | null {
  const m = /^L(\d+)(?:-L?(\d+))?$/.exec(anchor);
  if (!m) return null;
  const from = Number(m[1]);
  const to = Math.min(Number(m[2] ?? m[1]), from + MAX_EXCERPT_LINES - 1);
  const head = tryReadHead(real, READ_CAP_BYTES);
  if (head === null) return null;
  const lines = head.text.split(/\r?\n/);
  const available = head.truncated ? lines.length - 1 : lines.length;
  if (from < 1 || to > available) return null;
  return lines
    .slice(from - 1, to)
    .join('\n')
    .slice(0, MAX_EXCERPT_CHARS);
}
