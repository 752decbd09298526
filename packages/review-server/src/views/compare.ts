import { wordDiff } from '../diff.js';
import { type Html, h, langOf, seg } from '../html.js';

export interface EntryText {
  id: string;
  title: string;
  content: string;
  status: string;
  file: string;
  line: number | null;
}

/** Candidate and one match side by side; the words that differ are marked on both sides. */
export function compare(candidate: { title: string; content: string }, match: EntryText | null, id: string): Html {
  if (!match) {
    return h`<div class="compare single"><div class="side"><h4>Candidate</h4>${text(candidate.content)}</div></div>`;
  }
  const left = clip(candidate.content);
  const right = clip(match.content);
  const d = wordDiff(left.text, right.text);
  const where = `${match.file}${match.line ? `:${match.line}` : ''}`;
  return h`<div class="compare">
<div class="side"><h4>Candidate</h4>${marked(d.left, 'del')}${more(left.rest, 'the candidate')}</div>
<div class="side"><h4><a href="/entry/${seg(id)}">${match.title}</a> <span class="dim">${match.status === 'deprecated' ? '(deprecated) ' : ''}${where}</span></h4>${marked(d.right, 'ins')}${more(right.rest, where)}</div>
</div>`;
}

/**
 * Side by side compares the opening of long texts (a knowhow document against a one-line
 * candidate would otherwise be all highlight); the rest is counted, never silently dropped.
 */
const CLIP = 700;

function clip(content: string): { text: string; rest: number } {
  const chars = [...content];
  if (chars.length <= CLIP) return { text: content, rest: 0 };
  return { text: chars.slice(0, CLIP).join(''), rest: chars.length - CLIP };
}

function more(rest: number, where: string): Html | '' {
  return rest ? h`<p class="dim">… ${rest} more characters (full text in ${where})</p>` : '';
}

function text(content: string): Html {
  return h`<p class="text"${langOf(content)}>${content}</p>`;
}

function marked(parts: { text: string; changed: boolean }[], tag: 'del' | 'ins'): Html {
  const mark = (t: string) => (tag === 'del' ? h`<del>${t}</del>` : h`<ins>${t}</ins>`);
  const lang = langOf(parts.map((p) => p.text).join(''));
  return h`<p class="text"${lang}>${parts.map((p) => (p.changed ? mark(p.text) : p.text))}</p>`;
}
