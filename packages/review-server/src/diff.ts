/**
 * A word-level diff for the side-by-side view: tokens are words (Intl.Segmenter, so Chinese is
 * split into words too), whitespace and punctuation; tokens are compared after lower-casing and
 * NFKC. Pure. Beyond `MAX_CELLS` of LCS table the middle is marked changed as a whole.
 */
export interface DiffPart {
  text: string;
  changed: boolean;
}

const MAX_CELLS = 250_000;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

export function tokens(text: string): string[] {
  return [...segmenter.segment(text)].map((s) => s.segment);
}

const key = (t: string) => t.normalize('NFKC').toLowerCase();
const isSpace = (t: string) => /^\s+$/.test(t);

export function wordDiff(left: string, right: string): { left: DiffPart[]; right: DiffPart[] } {
  const a = tokens(left);
  const b = tokens(right);
  let start = 0;
  while (start < a.length && start < b.length && key(a[start]) === key(b[start])) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && key(a[endA - 1]) === key(b[endB - 1])) {
    endA--;
    endB--;
  }
  const same = common(a.slice(start, endA), b.slice(start, endB));
  const mark = (list: string[], end: number, keep: Set<number>): DiffPart[] =>
    merge(list.map((text, i) => ({ text, changed: i >= start && i < end && !keep.has(i - start) && !isSpace(text) })));
  return { left: mark(a, endA, same.a), right: mark(b, endB, same.b) };
}

/** Indexes of the tokens on each side that belong to a longest common subsequence. */
function common(a: string[], b: string[]): { a: Set<number>; b: Set<number> } {
  const out = { a: new Set<number>(), b: new Set<number>() };
  if (!a.length || !b.length || a.length * b.length > MAX_CELLS) return out;
  const ka = a.map(key);
  const kb = b.map(key);
  const w = kb.length + 1;
  const t = new Uint32Array((ka.length + 1) * w);
  for (let i = ka.length - 1; i >= 0; i--) {
    for (let j = kb.length - 1; j >= 0; j--) {
      t[i * w + j] = ka[i] === kb[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
    }
  }
  for (let i = 0, j = 0; i < ka.length && j < kb.length; ) {
    if (ka[i] === kb[j]) {
      out.a.add(i++);
      out.b.add(j++);
    } else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) i++;
    else j++;
  }
  return out;
}

/** Adjacent parts of the same kind in one run; whitespace between two changes joins them. */
function merge(parts: DiffPart[]): DiffPart[] {
  for (let i = 1; i < parts.length - 1; i++) {
    if (isSpace(parts[i].text) && parts[i - 1].changed && parts[i + 1].changed) parts[i].changed = true;
  }
  const out: DiffPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (last && last.changed === p.changed) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}
