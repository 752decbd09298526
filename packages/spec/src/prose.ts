import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowLayout } from '@maestro/fs';
import { readFrontmatter } from './frontmatter.js';
import type { Corpus } from './model.js';
import { SEED_FILES, seedGuidance } from './seeds.js';

/** The guidance lines `maestro init` writes under each seed file's heading: not unread knowledge. */
const GUIDANCE = new Set(SEED_FILES.map((s) => seedGuidance(s.category)));

/**
 * Below this many characters of body text (headings, rules and blank lines aside) a spec file
 * without entries is an empty template ("# Debug Notes / ## Entries"), not unread knowledge.
 */
export const PROSE_MIN_CHARS = 80;

/** A spec file whose text is not inside any `<spec-entry>` block: nothing reads it. */
export interface UnindexedProse {
  /** Relative to `.workflow/`. */
  file: string;
  /** 1-based line of the first line of body text. */
  line: number;
  /** Characters of body text (headings, horizontal rules and blank lines not counted). */
  chars: number;
}

/**
 * The body text of a spec file that holds no entries: its first line and how much of it there is,
 * or null when it is only frontmatter, headings, blank lines and the guidance line `maestro init`
 * writes (or shorter than `min`). Pure.
 */
export function proseOutsideEntries(text: string, min = PROSE_MIN_CHARS): { line: number; chars: number } | null {
  const fm = readFrontmatter(text, '', () => ({ line: 1, column: 1 }), []);
  const bodyStart = fm ? fm.end : text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  for (let i = 0; i < bodyStart; i++) if (text.charCodeAt(i) === 10) line++;
  let first = 0;
  let chars = 0;
  for (const raw of text.slice(bodyStart).split('\n')) {
    const t = raw.trim();
    if (t !== '' && !t.startsWith('#') && !/^([-*_])(\s*\1){2,}$/.test(t) && !GUIDANCE.has(t)) {
      if (first === 0) first = line;
      chars += t.length;
    }
    line++;
  }
  return chars >= min ? { line: first, chars } : null;
}

/**
 * Spec files of the corpus that hold no entry at all but do hold body text: maestro-flow's reader
 * and ours see nothing there, so search, context and the matcher never show that text. Reads only
 * those files (knowhow documents are whole entries and never qualify).
 */
export function findUnindexedProse(layout: WorkflowLayout, corpus: Corpus, min = PROSE_MIN_CHARS): UnindexedProse[] {
  const withEntries = new Set<string>();
  for (const e of corpus.entries) withEntries.add(e.file);
  const out: UnindexedProse[] = [];
  for (const f of corpus.files) {
    if (!f.path.startsWith('specs/') || withEntries.has(f.path)) continue;
    let text: string;
    try {
      text = readFileSync(join(layout.workflow, f.path), 'utf8');
    } catch {
      continue; // gone since the corpus was read: the next health run says so through the corpus
    }
    const found = proseOutsideEntries(text, min);
    if (found) out.push({ file: f.path, ...found });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
