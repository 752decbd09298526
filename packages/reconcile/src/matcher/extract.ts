import { stem } from './stem.js';
import { vocabulary } from './vocabulary.js';

/** A number a rule states, in base units of its dimension, with the direction of the bound. */
export interface NumberFact {
  dim: string;
  value: number | string;
  bound: 'max' | 'min' | 'eq';
  /** As written, for evidence strings. */
  text: string;
}

interface UnitForm {
  form: string;
  dim: string;
  factor: number;
  han: boolean;
}

const HAN = /\p{Script=Han}/u;
let unitForms: UnitForm[] | null = null;
/** Unit forms of the vocabulary, longest first; built on first use. */
const UNIT_FORMS = (): UnitForm[] =>
  (unitForms ??= vocabulary()
    .units.flatMap(([forms, dim, factor]) =>
      forms.split('|').map((form) => ({ form, dim, factor, han: HAN.test(form) })),
    )
    .sort((a, b) => b.form.length - a.form.length));

const DIR_WORDS = new Set(['src', 'lib', 'packages', 'apps', 'services', 'test', 'tests', 'docs', 'config', 'scripts']);
for (const w of ['app', 'api', 'bin', 'e2e', 'internal', 'pkg', 'cmd', 'components', 'pages', 'public', 'assets']) {
  DIR_WORDS.add(w);
}
const PATH_CANDIDATE =
  /(?<![a-z0-9_.@*~/\\<>-])(?:~|\.{1,2})?\/?[a-z0-9_.@*-]*(?:\/[a-z0-9_.@*{},-]*)+|\*{1,2}\.[a-z0-9]+/g;

// A call such as `response.json()` is not a file.
const FILE_NAME =
  /(?<![a-z0-9_./@-])[a-z0-9_-]+\.(?:json|ya?ml|md|toml|lock|sh|txt|css|scss|html|sql|xml|ini|cfg|conf|env)(?![a-z0-9(])/g;
/** Extensions of source and data files: `a/b.set` is a list of identifiers, `a/b.ts` a file. */
const EXTENSION =
  /\.(?:[cm]?[jt]sx?|json|ya?ml|md|toml|lock|sh|py|rs|go|java|kt|rb|php|cs|cpp|c|h|css|scss|less|html|vue|svelte|sql|xml|ini|cfg|conf|env|txt|csv|log|db|sqlite|png|jpe?g|svg|gif|dart|swift|proto|graphql|gradle|mdx|pen)$/;

/** A path segment: a directory word, or a name with `.`, `_` or `-` in it ("feat/fix/docs" is a list). */
const pathLike = (part: string) => DIR_WORDS.has(part) || /[._-]/.test(part);

/**
 * Finds file paths and globs (scopes, not topic words) and replaces them with `§p`. Word pairs
 * such as "read/write" or "and/or" are not paths: a path has a known directory word, an
 * extension, a glob, a leading `/` or `./`, or at least two slashes.
 */
export function extractPaths(text: string, scopes: Set<string>): string {
  const withFiles = text.replace(FILE_NAME, (m) => {
    scopes.add(`path:${m}`);
    return ' §p ';
  });
  return withFiles.replace(PATH_CANDIDATE, (m) => {
    const path = m.replace(/[.,]+$/, '');
    const parts = path.split('/').filter(Boolean);
    // "401/403/400" and "读/写/删除" are lists, not paths: a path has no all-digit part, and
    // several slashes alone only make one when a part is a known directory word.
    const list = parts.some((p) => /^\d+$/.test(p));
    const isPath =
      !list &&
      (/^[~./]/.test(path) ||
        /\/$/.test(m) ||
        path.includes('*') ||
        EXTENSION.test(path) ||
        (parts.length > 0 && DIR_WORDS.has(parts[0])) ||
        ((path.match(/\//g) ?? []).length >= 2 && parts.filter(pathLike).length * 2 >= parts.length));
    if (!isPath || parts.length === 0) return m.replace(/\//g, ' ');
    scopes.add(`path:${path.replace(/^\.\//, '').replace(/\/+$/, '')}`);
    return ' §p ';
  });
}

function unitAt(text: string, at: number): { unit: UnitForm; end: number } | null {
  let i = at;
  // "30 s", "30s", and the adjectival "30-second" / "90-day".
  if (text[i] === ' ' || (text[i] === '-' && /[a-z]/.test(text[i + 1] ?? ''))) i++;
  for (const unit of UNIT_FORMS()) {
    if (!text.startsWith(unit.form, i)) continue;
    const end = i + unit.form.length;
    if (!unit.han && /[a-z0-9]/.test(text[end] ?? '')) continue;
    return { unit, end };
  }
  return null;
}

const NOUN_STOP = new Set([
  'the',
  'of',
  'and',
  'or',
  'to',
  'in',
  'on',
  'for',
  'with',
  'per',
  'a',
  'an',
  'at',
  'by',
  'is',
  'are',
]);

/**
 * What a number without a unit counts: the noun within the next two words ("two approving
 * reviews" → count:review). Digits only count plural nouns, so "Node 20 everywhere" stays a
 * plain number; number words ("one approving review") also count a singular noun.
 */
function countedNoun(text: string, at: number, word: boolean): { dim: string; end: number; unit?: UnitForm } | null {
  const m = /^\s+(?:([a-z][a-z-]*)\s+)?([a-z][a-z-]*)/.exec(text.slice(at));
  if (!m) return null;
  const [first, second] = [m[1], m[2]];
  if (first !== undefined && NOUN_STOP.has(first)) return null;
  const noun = first === undefined || !NOUN_STOP.has(second) ? second : first;
  if (NOUN_STOP.has(noun)) return null;
  const unit = UNIT_FORMS().find((u) => !u.han && u.form === noun);
  if (unit) return { dim: unit.dim, end: at + m[0].length, unit };
  if (!word && !/[^s]s$/.test(noun)) return null;
  return { dim: `count:${stem(noun)}`, end: at + m[0].length };
}

const HAN_DIGITS: Record<string, number> = {
  零: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

function hanNumber(s: string): number | null {
  let total = 0;
  let current = 0;
  for (const ch of s) {
    if (ch in HAN_DIGITS) current = HAN_DIGITS[ch];
    else if (ch === '十' || ch === '百' || ch === '千') {
      const mult = ch === '十' ? 10 : ch === '百' ? 100 : 1000;
      total += (current || 1) * mult;
      current = 0;
    } else return null;
  }
  return total + current;
}

function fact(raw: string, value: number | string, unit: UnitForm | null): Omit<NumberFact, 'bound'> {
  if (typeof value === 'string') return { dim: 'version', value, text: raw };
  if (!unit) return { dim: 'n', value, text: raw };
  return { dim: unit.dim, value: Math.round(value * unit.factor * 1000) / 1000, text: raw };
}

const NUMBER = /(?<![a-z0-9_./#:-])v?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)*/g;
/** A pre-release tag right after a dotted version: 4.2.0b3, 1.0.0rc1, 2.0.0-beta.1. */
const PRERELEASE = /^(?:-?(?:a|b|rc|alpha|beta|pre|dev)\.?\d*)(?![a-z])/;
let wordNumber: RegExp | null = null;
const WORD_NUMBER = () =>
  (wordNumber ??= new RegExp(`(?<![a-z])(${Object.keys(vocabulary().numberWordsEn).join('|')})(?![a-z])`, 'g'));
const HAN_NUMBER = /[零一二两三四五六七八九十百千]+/g;

/**
 * Finds the numbers a sentence states ("30 s", "v18", "5.4.2", "三次", "sixty seconds") and
 * replaces each with `§n<index>`. Digits glued to letters ("es2022", "3rd") are identifiers.
 */
export function extractNumbers(text: string, out: Omit<NumberFact, 'bound'>[]): string {
  const spans: { start: number; end: number; f: Omit<NumberFact, 'bound'> }[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const start = m.index ?? 0;
    const body = m[0].replace(/^v/, '').replace(/,/g, '');
    const dots = (body.match(/\./g) ?? []).length;
    const tag = dots >= 2 ? (PRERELEASE.exec(text.slice(start + m[0].length))?.[0] ?? '') : '';
    const end = start + m[0].length + tag.length;
    const unit = tag ? null : unitAt(text, end);
    if (!unit && /[a-z]/.test(text[end] ?? '')) continue;
    const value = dots >= 2 || (m[0].startsWith('v') && dots >= 1) ? body + tag : Number(body);
    const counted = unit || typeof value === 'string' ? null : countedNoun(text, end, false);
    const stop = unit?.end ?? end; // a counted noun stays in the text: it is part of the subject
    const f = fact(text.slice(start, stop).trim(), value, unit?.unit ?? counted?.unit ?? null);
    spans.push({ start, end: stop, f: counted && !counted.unit ? { ...f, dim: counted.dim } : f });
  }
  for (const m of text.matchAll(WORD_NUMBER())) addWordSpan(text, m, spans, vocabulary().numberWordsEn[m[1]]);
  for (const m of text.matchAll(HAN_NUMBER)) {
    // 第二 is an ordinal and 另一 means "another": neither states a quantity.
    if (/[第另]$/.test(text.slice(0, m.index ?? 0))) continue;
    const n = hanNumber(m[0]);
    if (n !== null) addWordSpan(text, m, spans, n);
  }
  spans.sort((a, b) => a.start - b.start);
  let result = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    result += `${text.slice(at, s.start)} §n${out.length} `;
    out.push(s.f);
    at = s.end;
  }
  return result + text.slice(at);
}

/** A number written as a word only counts when a unit follows it ("three retries", "两次"). */
function addWordSpan(
  text: string,
  m: RegExpMatchArray,
  spans: { start: number; end: number; f: Omit<NumberFact, 'bound'> }[],
  n: number,
) {
  const start = m.index ?? 0;
  const end = start + m[0].length;
  if (m[1] === 'once' || m[1] === 'twice') {
    spans.push({ start, end, f: { dim: 'times', value: n, text: m[0] } });
    return;
  }
  const unit = unitAt(text, end);
  if (unit) {
    spans.push({ start, end: unit.end, f: fact(text.slice(start, unit.end).trim(), n, unit.unit) });
    return;
  }
  const counted = /^[a-z]/.test(m[0]) ? countedNoun(text, end, true) : null;
  if (!counted) return;
  const raw = text.slice(start, counted.end).trim();
  spans.push({ start, end, f: counted.unit ? fact(raw, n, counted.unit) : { dim: counted.dim, value: n, text: raw } });
}
