import { RECALL } from './config.js';

/** One search hit with the entry's text, in the order search ranked it (score descending). */
export interface RecallHit {
  id: string;
  title: string;
  category: string | null;
  file: string;
  score: number;
  text: string;
  /** The contested flag (conflict marker or `confidence="contested"`), shown beside the entry. */
  contested: string | null;
}

export type LeftReason = 'below-floor' | 'limit' | 'duplicate' | 'budget';

export interface RecalledEntry extends RecallHit {
  /** True when the text was cut to fit (the entry says how to read it whole). */
  cut: boolean;
}

export interface RecallSelection {
  chosen: RecalledEntry[];
  left: { id: string; score: number; reason: LeftReason }[];
  /** The score a hit needed (max of the absolute floor and the share of the top score), or null with no hits. */
  floor: number | null;
  topScore: number | null;
}

export interface SelectOptions {
  /** Entries in the searched corpus (the floor scales with it, as BM25 scores do). */
  corpusSize: number;
  /** Tokens the rendered block may take (head and close included). */
  budget: number;
  estimate(text: string): number;
  /** Renders the block for a candidate list, so the budget is checked on the real text. */
  render(entries: readonly RecalledEntry[]): string;
}

/** `floorRareTerms` × the BM25 idf of a term that occurs in one of `n` entries; 0 for a tiny corpus. */
export function absoluteFloor(n: number): number {
  if (n < RECALL.floorMinEntries) return 0;
  return RECALL.floorRareTerms * Math.log(1 + (n - 0.5) / 1.5);
}

const titleKey = (t: string) => t.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Chooses what to recall for a prompt. Pure. Relevance first: nothing when the top hit is below
 * the floor; never a hit far weaker than the top; then diversity (a second entry with the same
 * title adds nothing); then the budget, strongest first — an entry that does not fit whole is cut
 * to fit, and once the budget is spent the rest is left out, so a weaker entry never takes the
 * place of a stronger one.
 */
export function selectRecalled(hits: readonly RecallHit[], o: SelectOptions): RecallSelection {
  const topScore = hits[0]?.score ?? null;
  const gate = absoluteFloor(o.corpusSize);
  // The absolute floor decides whether anything is about the prompt; then each entry must be close to the best.
  const floor = topScore === null ? null : topScore < gate ? gate : RECALL.relativeFloor * topScore;
  const chosen: RecalledEntry[] = [];
  const left: RecallSelection['left'] = [];
  const titles = new Set<string>();
  let spent = false;
  for (const h of hits) {
    const leave = (reason: LeftReason) => left.push({ id: h.id, score: h.score, reason });
    if (floor === null || h.score < floor) leave('below-floor');
    else if (spent) leave('budget');
    else if (chosen.length >= RECALL.maxEntries) leave('limit');
    else if (titles.has(titleKey(h.title))) leave('duplicate');
    else {
      const fitted = fit(h, chosen, o);
      if (fitted === null) {
        spent = true;
        leave('budget');
      } else {
        chosen.push(fitted);
        titles.add(titleKey(h.title));
      }
    }
  }
  return { chosen, left, floor, topScore };
}

/** The hit whole, or cut to what the budget leaves (at most `entryTokens`), or null when too little is left. */
function fit(h: RecallHit, chosen: readonly RecalledEntry[], o: SelectOptions): RecalledEntry | null {
  const whole: RecalledEntry = { ...h, cut: false };
  if (o.estimate(h.text) <= RECALL.entryTokens && o.estimate(o.render([...chosen, whole])) <= o.budget) return whole;
  const used = o.estimate(o.render([...chosen, { ...h, text: '', cut: true }]));
  const room = Math.min(RECALL.entryTokens, o.budget - used);
  if (room < RECALL.minEntryTokens) return null;
  let text = cutText(h.text, room, o.estimate);
  let entry: RecalledEntry = { ...h, text, cut: true };
  // The estimate of a cut text is close to, not exactly, proportional: shrink until it fits.
  while (o.estimate(o.render([...chosen, entry])) > o.budget && text.length > 0) {
    text = text.slice(0, Math.floor(text.length * 0.9));
    entry = { ...h, text: text.trimEnd(), cut: true };
  }
  return o.estimate(o.render([...chosen, entry])) <= o.budget && text.length > 0 ? entry : null;
}

/** The longest prefix of `text` within `tokens`, ended at a line or word boundary when one is near. */
export function cutText(text: string, tokens: number, estimate: (t: string) => number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (estimate(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  const prefix = text.slice(0, lo);
  const boundary = Math.max(prefix.lastIndexOf('\n'), prefix.lastIndexOf(' '));
  return (boundary > lo * 0.7 ? prefix.slice(0, boundary) : prefix).trimEnd();
}
