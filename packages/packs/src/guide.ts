import { splitFrontmatter, tryReadHead } from './frontmatter.js';
import { READ_CAP_BYTES } from './limits.js';
import { splitSections } from './markdown.js';
import { ENTRY_FILE } from './pack-head.js';
import { resolvePackPath } from './paths.js';
import { matchScore, type TermIndex, termIndex } from './tokens.js';
import { detectInjection } from './wrap.js';

/**
 * The guide tier (standard §3.7): the `KNOWLEDGE.md` body — usage notes, boundaries and the
 * context map — loaded on activation, before context, and only within the budget.
 */
export interface GuideCandidate {
  /** The body (frontmatter removed), from at most the first 256 KB of the file. */
  text: string;
  truncated: boolean;
  sections: GuideSection[];
  injections: string[];
}

export interface GuideSection {
  id: string;
  title: string;
  text: string;
  index: TermIndex;
  score: number;
  /** Usage, boundary or rule sections: what constrains use of the pack, kept first when cutting. */
  key: boolean;
  /** A context map section (paths for the resolver; the least useful part for a model). */
  map: boolean;
  /** False for a heading with nothing under it (a title): never worth a unit of its own. */
  hasBody: boolean;
  injections: string[];
}

const KEY_TITLE =
  /usage|use |when to|boundar|rule|limit|runtime|caution|warning|do not|don't|never|policy|grounding|边界|使用|规则|注意|禁忌|限制|约束/i;
const MAP_TITLE = /context map|contents|includes|files|resources|包含|地图|目录/i;

/** Reads the body of `<pack>/KNOWLEDGE.md` (regular file, inside the pack, at most 256 KB). */
export function readGuideBody(realRoot: string): { body: string; truncated: boolean } | null {
  const entry = resolvePackPath(realRoot, ENTRY_FILE);
  if (!entry.ok || entry.real === null) return null;
  const head = tryReadHead(entry.real, READ_CAP_BYTES);
  if (head === null) return null;
  const split = splitFrontmatter(head.text, ENTRY_FILE, head.truncated);
  if ('code' in split) return null;
  return { body: split.body.trim() === '' ? '' : `${split.body.trim()}\n`, truncated: head.truncated };
}

/** The guide as a candidate: scored sections, so a guide too large for the budget can be cut. */
export function guideCandidate(body: string, truncated: boolean, queryTerms: readonly string[]): GuideCandidate | null {
  if (body.trim() === '') return null;
  const sections = splitSections(body).map((s) => {
    const index = termIndex(s.text);
    return {
      id: s.id,
      title: s.title,
      text: s.text,
      index,
      score: matchScore(queryTerms, index),
      key: KEY_TITLE.test(s.title),
      map: MAP_TITLE.test(s.title),
      hasBody:
        s.text
          .split('\n')
          .slice(s.level > 0 ? 1 : 0)
          .join('\n')
          .trim() !== '',
      injections: detectInjection(s.text),
    };
  });
  return { text: body, truncated, sections, injections: detectInjection(body) };
}
