import { sha256 } from '@maestro/core';
import { parseSpecFile, renderEntryNode, type SpecFileModel } from '@maestro/spec';
import { conflictBlock, type MergeContext, trivialMerge } from './text.js';

/** One conflict the merge left markers around. */
export interface MergeConflict {
  /** The entry's sid (or `title:…`/`legacy:…` key), the document, or `prose`. */
  key: string;
  kind: 'both-edited' | 'both-added' | 'edited-and-deleted' | 'prose';
}

export interface MergeOutcome {
  text: string;
  conflicts: MergeConflict[];
  /** How the entries were taken: unchanged, from ours, from theirs, and dropped (deleted on a side). */
  counts: { entries: number; ours: number; theirs: number; deleted: number };
}

/** A side that cannot be merged by entry: the caller falls back to a text merge. */
export interface MergeRefusal {
  fallback: string;
}

interface Unit {
  key: string;
  /** Text between the previous entry and this one ('' for the first entry: it is the header). */
  lead: string;
  text: string;
  /** The first entry of its side: its empty lead says nothing about how to follow another entry. */
  first: boolean;
}

interface Side {
  header: string;
  units: Map<string, Unit>;
  order: string[];
  tail: string;
  eol: '\n' | '\r\n';
}

function keyOf(node: SpecFileModel['segments'][number]): string {
  if (node.kind === 'legacy') return `legacy:${node.category ?? ''}|${node.date ?? ''}|${node.title}`;
  if (node.kind !== 'entry') return '';
  const attr = (name: string) => node.attributes.find((a) => a.name === name)?.value;
  const sid = attr('sid');
  if (sid) return sid;
  const title = attr('title');
  return title ? `title:${title}` : `text:${sha256(renderEntryNode(node)).slice(0, 16)}`;
}

/** Splits a parsed spec file into header, keyed entries (each with the text before it) and tail. */
function sideOf(text: string, label: string, path: string): Side | MergeRefusal {
  const { value, issues } = parseSpecFile(text, path);
  const error = issues.find((i) => i.severity === 'error');
  if (error) return { fallback: `${label} does not parse (line ${error.line ?? '?'}: ${error.message})` };
  const side: Side = { header: '', units: new Map(), order: [], tail: '', eol: value.eol };
  let pending = '';
  for (const seg of value.segments) {
    if (seg.kind === 'text') {
      pending += seg.raw;
      continue;
    }
    const key = keyOf(seg);
    if (side.units.has(key)) return { fallback: `${label} holds ${key} twice` };
    const first = side.order.length === 0;
    if (first) side.header = pending;
    side.units.set(key, {
      key,
      lead: first ? '' : pending,
      text: seg.kind === 'entry' ? renderEntryNode(seg) : seg.raw,
      first,
    });
    side.order.push(key);
    pending = '';
  }
  if (side.order.length === 0) side.header = pending;
  else side.tail = pending;
  return side;
}

/**
 * Merges three versions of a spec file entry by entry (pure). Entries are keyed by sid (else by
 * title, else by their text). An entry changed on one side takes that change; added on both sides
 * it is kept once if identical, else both versions stand between conflict markers; edited on one
 * side and deleted on the other, or edited differently on both, it stands between markers too —
 * only that entry. New entries keep their side's position; at one spot ours come before theirs.
 * Text outside entries (header, headings, prose between entries) is merged as text. Every entry
 * nobody touched comes out byte for byte. Returns a refusal when a side does not parse.
 */
export function mergeSpecFile(
  base: string,
  ours: string,
  theirs: string,
  path: string,
  ctx: MergeContext,
): MergeOutcome | MergeRefusal {
  const o = sideOf(base, 'the common ancestor', path);
  if ('fallback' in o) return o;
  const a = sideOf(ours, 'our version', path);
  if ('fallback' in a) return a;
  const b = sideOf(theirs, 'their version', path);
  if ('fallback' in b) return b;
  const out: MergeOutcome = { text: '', conflicts: [], counts: { entries: 0, ours: 0, theirs: 0, deleted: 0 } };
  const prose = (x: string, y: string, z: string) => {
    const t = trivialMerge(x, y, z);
    if (t !== null) return t;
    const m = ctx.mergeText(y, x, z);
    if (m.conflicts) out.conflicts.push({ key: 'prose', kind: 'prose' });
    return m.text;
  };
  let text = prose(o.header, a.header, b.header);
  let emitted = 0;
  for (const key of mergedOrder(o, a, b)) {
    const piece = mergeUnit(key, o, a, b, out, ctx.markerSize ?? 7, prose);
    if (piece === null) continue;
    // An entry that came first on its side has no text of its own before it; placed after another
    // entry it would be glued to that entry's closing tag (and a conflict marker would not start a line).
    const headless = [a.units.get(key), b.units.get(key)].some((u) => u?.first);
    const glued = emitted > 0 && headless && !text.endsWith('\n') && !/^\s/.test(piece);
    text += glued ? `${a.eol}${a.eol}${piece}` : piece;
    emitted++;
  }
  out.text = text + prose(o.tail, a.tail, b.tail);
  return out;
}

/** Ours' order, with entries only theirs added placed after their predecessor in theirs. */
function mergedOrder(o: Side, a: Side, b: Side): string[] {
  const res = [...a.order];
  const newInOurs = (k: string) => !o.units.has(k) && !b.units.has(k);
  let pos = -1;
  let afterCommon = true;
  for (const k of b.order) {
    const at = res.indexOf(k);
    if (at !== -1) {
      pos = at;
      afterCommon = true;
      continue;
    }
    let p = pos + 1;
    if (afterCommon) while (p < res.length && newInOurs(res[p])) p++;
    res.splice(p, 0, k);
    pos = p;
    afterCommon = false;
  }
  return res;
}

type Prose = (base: string, ours: string, theirs: string) => string;

function mergeUnit(
  key: string,
  o: Side,
  a: Side,
  b: Side,
  out: MergeOutcome,
  markerSize: number,
  prose: Prose,
): string | null {
  const [uo, ua, ub] = [o.units.get(key), a.units.get(key), b.units.get(key)];
  const conflict = (kind: MergeConflict['kind'], ours: string, theirs: string) => {
    out.conflicts.push({ key, kind });
    return conflictBlock(ours, theirs, a.eol, markerSize);
  };
  const lead = leadOf(uo, ua, ub, prose);
  if (ua && ub) {
    out.counts.entries++;
    const same = trivialMerge(uo?.text ?? '', ua.text, ub.text);
    if (same !== null && (uo || ua.text === ub.text)) {
      if (uo && same !== uo.text) out.counts[same === ua.text ? 'ours' : 'theirs']++;
      return lead + same;
    }
    return lead + conflict(uo ? 'both-edited' : 'both-added', ua.text, ub.text);
  }
  const only = (ua ?? ub) as Unit;
  if (!uo) {
    out.counts.entries++;
    out.counts[ua ? 'ours' : 'theirs']++;
    return only.lead + only.text;
  }
  if (only.text === uo.text) {
    out.counts.deleted++;
    // The side that kept the entry may have edited the prose before it: keep that prose.
    return only.lead !== uo.lead && only.lead.trim() !== '' ? only.lead : null;
  }
  out.counts.entries++;
  return only.lead + (ua ? conflict('edited-and-deleted', ua.text, '') : conflict('edited-and-deleted', '', only.text));
}

/** The text before an entry: merged as prose when both sides have it, else the side's own. */
function leadOf(uo: Unit | undefined, ua: Unit | undefined, ub: Unit | undefined, prose: Prose): string {
  if (ua && ub) {
    if (!uo && !ua.lead.trim() && !ub.lead.trim()) return ua.lead;
    return prose(uo?.lead ?? '', ua.lead, ub.lead);
  }
  return (ua ?? ub)?.lead ?? '';
}
