import { analyzeText, type TextFeatures } from './analyze.js';
import { vocabulary } from './vocabulary.js';

/**
 * The role slot: who approves or signs off ("approved by the data-platform team", "由 DPO 批准").
 * Two texts about the same subject that name different approvers, neither inside the other,
 * differ in a normative slot. The verbs and the words that introduce the agent are data
 * (`data/vocabulary.json`, `role`); the agents are the texts' own terms.
 */
/** Weight above which a term is not a generic word (generic words weigh 0.35, see analyze.ts). */
const SPECIFIC = 0.4;
/** Words of an English agent phrase read after `by` / `from` / `of`, or before the verb. */
const AGENT_WORDS = 5;
/** Characters of a Chinese agent read before the verb when no introducing word is found. */
const AGENT_CHARS = 8;
const STOP = /[,.;:!?()，。；：！？（）\n]|\s(?:and|or|but|to|with|before|after|when|if|so|because)\s/;
/** Words that may stand between the verb and the word that introduces its agent ("approved in Pleo by"). */
const GAP_WORDS = 3;
/**
 * Terms the two approval sentences share besides the approvers: the approval itself and two more,
 * the thing approved.
 */
const SUBJECT_TERMS = 3;
/** Chinese clauses end at these; parentheses stay (技术负责人（tech lead）批准). */
const STOP_ZH = /[,.;:!?，。；：！？\n]/;
/** In "取得 X 的批准" the approver is what precedes the possessive particle. */
const POSSESSIVE = '的';

/** The text's specific terms, and the names it writes that the analysis keeps as a scope ("the data-platform team"). */
function termsOf(text: string): Set<string> {
  const f = analyzeText(text);
  const out = new Set<string>();
  for (const [t, w] of f.terms) if (w >= SPECIFIC && !t.startsWith('dim:')) out.add(t);
  for (const t of f.display.keys()) if (t.startsWith('w:') && !f.terms.has(t)) out.add(t);
  return out;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');

interface Named {
  agent: string;
  sentence: string;
}
const NOUN = /(?:al|als|-off)$/;
const SENTENCE_END = /[.;!?。；！？\n]/;

/** The sentence around position `at`. */
function sentenceAt(text: string, at: number): string {
  let from = at;
  while (from > 0 && !SENTENCE_END.test(text[from - 1])) from--;
  let to = at;
  while (to < text.length && !SENTENCE_END.test(text[to])) to++;
  return text.slice(from, to);
}

function englishAgents(text: string): Named[] {
  const r = vocabulary().role;
  if (!r?.verbsEn?.length) return [];
  const verbs = new RegExp(`(^|[^a-z-])(${r.verbsEn.map(escaped).join('|')})(?![a-z])`, 'g');
  const after = new RegExp(
    `^(?:\\s+[a-z0-9-]+){0,${GAP_WORDS}}?\\s+(?:${(r.agentAfterEn ?? []).map(escaped).join('|')})\\s+`,
  );
  const lower = text.toLowerCase();
  const out: Named[] = [];
  for (const m of lower.matchAll(verbs)) {
    const end = (m.index ?? 0) + m[0].length;
    const rest = text.slice(end);
    const sentence = sentenceAt(text, m.index ?? 0);
    const intro = after.exec(rest.toLowerCase());
    if (intro) {
      const phrase = rest.slice(intro[0].length).split(STOP)[0];
      out.push({ agent: phrase.split(/\s+/).slice(0, AGENT_WORDS).join(' '), sentence });
      continue;
    }
    // A noun ("an approval") names no agent without by / from / of.
    if (NOUN.test(m[2])) continue;
    // "the tech lead approves" / "two reviewers must approve": the words before the verb.
    const start = (m.index ?? 0) + m[1].length;
    const before = text.slice(0, start).split(STOP).pop() ?? '';
    const words = before.trim().split(/\s+/).filter(Boolean);
    if (words.length > 0) out.push({ agent: words.slice(-AGENT_WORDS).join(' '), sentence });
  }
  return out;
}

function chineseAgents(text: string): Named[] {
  const r = vocabulary().role;
  const out: Named[] = [];
  for (const verb of r?.verbsZh ?? []) {
    let at = text.indexOf(verb);
    while (at >= 0) {
      const before = text.slice(0, at).split(STOP_ZH).pop() ?? '';
      let agent = before.slice(-AGENT_CHARS);
      for (const intro of r?.agentBeforeZh ?? []) {
        const i = before.lastIndexOf(intro);
        if (i >= 0) {
          agent = before.slice(i + intro.length);
          break;
        }
      }
      for (const intro of r?.agentOwnerZh ?? []) {
        const i = before.lastIndexOf(intro);
        const p = before.lastIndexOf(POSSESSIVE);
        if (i >= 0 && p > i) {
          agent = before.slice(i + intro.length, p);
          break;
        }
      }
      out.push({ agent, sentence: sentenceAt(text, at) });
      at = text.indexOf(verb, at + verb.length);
    }
  }
  return out;
}

interface Approver {
  agent: Set<string>;
  /** The rest of the sentence: what is approved. */
  subject: Set<string>;
}

const agentsCache = new WeakMap<TextFeatures, Approver[]>();

/** The approvers a text names, as term sets (computed once per text, only for texts with the verbs). */
export function approvers(f: TextFeatures): Approver[] {
  let out = agentsCache.get(f);
  if (!out) {
    out = [];
    for (const n of [...englishAgents(f.text), ...chineseAgents(f.text)]) {
      const agent = termsOf(n.agent);
      if (agent.size === 0) continue;
      const subject = new Set([...termsOf(n.sentence)].filter((t) => !agent.has(t)));
      out.push({ agent, subject });
    }
    agentsCache.set(f, out);
  }
  return out;
}

const inside = (a: Set<string>, b: Set<string>) => [...a].every((t) => b.has(t));
function sameSubject(a: Set<string>, b: Set<string>): boolean {
  let n = 0;
  for (const t of a) if (b.has(t) && ++n >= SUBJECT_TERMS) return true;
  return false;
}

const shown = (f: TextFeatures, terms: Set<string>) =>
  [...new Set([...terms].map((t) => f.display.get(t) ?? t.slice(t.indexOf(':') + 1)))].join(' ');

/**
 * Another approver for the same subject: "different approver: tech lead vs data-platform team", or
 * null. One approver named inside the other (the tech lead / the owning team's tech lead) agrees.
 */
export function roleSlot(c: TextFeatures, d: TextFeatures): string | null {
  if (c.adds) return null;
  const ca = approvers(c);
  if (ca.length === 0) return null;
  const da = approvers(d);
  if (da.length === 0) return null;
  // Every approver the candidate names must differ from every one the entry names.
  for (const x of ca) for (const y of da) if (inside(x.agent, y.agent) || inside(y.agent, x.agent)) return null;
  for (const x of ca) {
    for (const y of da) {
      if (!sameSubject(x.subject, y.subject)) continue;
      const onlyX = new Set([...x.agent].filter((t) => !y.agent.has(t)));
      const onlyY = new Set([...y.agent].filter((t) => !x.agent.has(t)));
      return `different approver: ${shown(c, onlyX)} vs ${shown(d, onlyY)}`;
    }
  }
  return null;
}
