import { wordDiff } from '../diff.js';
import { type Html, h, seg } from '../html.js';

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
  const d = wordDiff(candidate.content, match.content);
  const where = `${match.file}${match.line ? `:${match.line}` : ''}`;
  return h`<div class="compare">
<div class="side"><h4>Candidate</h4>${marked(d.left, 'del')}</div>
<div class="side"><h4><a href="/entry/${seg(id)}">${match.title}</a> <span class="dim">${match.status === 'deprecated' ? '(deprecated) ' : ''}${where}</span></h4>${marked(d.right, 'ins')}</div>
</div>`;
}

function text(content: string): Html {
  return h`<p class="text">${content}</p>`;
}

function marked(parts: { text: string; changed: boolean }[], tag: 'del' | 'ins'): Html {
  const mark = (t: string) => (tag === 'del' ? h`<del>${t}</del>` : h`<ins>${t}</ins>`);
  return h`<p class="text">${parts.map((p) => (p.changed ? mark(p.text) : p.text))}</p>`;
}
