import { inputError, slugify } from '@maestro/core';
import type { Corpus, KnowledgeEntry } from './model.js';

/**
 * maestro-flow's id forms, accepted as aliases of the one canonical id (pure; no disk).
 *
 * - `spec:{scope}:{stem}-{NNN}`: maestro-flow's wiki and knowledge-graph id, positional (NNN is the
 *   1-based position in the file, `<spec-entry>` blocks first, then legacy headings), so it drifts
 *   when entries are inserted or removed. Only `project` scope lives in this project.
 * - `spec:{sid}`, `legacy:{file}:{line}`: the reconciliation ids.
 * - `knowhow:{slug}` (graph node), `knowhow-{slug}` (wiki id, our canonical id), the explicit id
 *   `tip-YYYYMMDD-…` and the file stem / file name.
 */
export type AliasForm = 'positional' | 'spec-prefix' | 'legacy' | 'knowhow' | 'letter-case';

export interface AliasCandidate {
  id: string;
  file: string;
  line: number | null;
  title: string;
}

export type RefResolution =
  | { kind: 'entry'; entry: KnowledgeEntry; alias: { ref: string; form: AliasForm } | null }
  | { kind: 'unknown' }
  | { kind: 'ambiguous' | 'drifted'; ref: string; reason: string; candidates: AliasCandidate[] };

export interface ResolveRefOptions {
  /** When the id was recorded (ISO); a positional id naming an entry dated later has drifted. */
  recordedAt?: string | null;
}

const POSITIONAL = /^spec:([a-z]+(?::[^:]+)?):(.+)-(\d{3,})$/i;
const LEGACY = /^legacy:(.+):(\d+)$/;

/** `spec:project:{stem}-{NNN}` of each spec entry of one file, in file order (pure). */
export function positionalIds(fileEntries: readonly KnowledgeEntry[]): Map<string, KnowledgeEntry> {
  const out = new Map<string, KnowledgeEntry>();
  const specs = fileEntries.filter((e) => e.store === 'spec');
  const ordered = [...specs.filter((e) => !e.legacy), ...specs.filter((e) => e.legacy)];
  ordered.forEach((e, i) => {
    out.set(`spec:project:${fileStem(e.file)}-${String(i + 1).padStart(3, '0')}`, e);
  });
  return out;
}

function fileStem(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.endsWith('.md') ? base.slice(0, -3) : base;
}

interface AliasTables {
  byFile: Map<string, KnowledgeEntry[]>;
  positional: Map<string, KnowledgeEntry>;
  position: Map<KnowledgeEntry, string>;
}

const tables = new WeakMap<Corpus, AliasTables>();

function aliasTables(corpus: Corpus): AliasTables {
  const hit = tables.get(corpus);
  if (hit) return hit;
  const byFile = new Map<string, KnowledgeEntry[]>();
  for (const e of corpus.entries) {
    if (e.store !== 'spec') continue;
    const list = byFile.get(e.file) ?? [];
    list.push(e);
    byFile.set(e.file, list);
  }
  const positional = new Map<string, KnowledgeEntry>();
  const position = new Map<KnowledgeEntry, string>();
  for (const list of byFile.values()) {
    for (const [id, e] of positionalIds(list)) {
      positional.set(id, e);
      position.set(e, id);
    }
  }
  const built = { byFile, positional, position };
  tables.set(corpus, built);
  return built;
}

/**
 * For a corpus holding only some entries of their files (a lookup through the store): the
 * positional id of each, computed from the stored rows, so `entryAliases` lists what the whole
 * corpus would. Positional references are not resolved against such a corpus.
 */
export function seedPositions(corpus: Corpus, position: Map<KnowledgeEntry, string>): void {
  tables.set(corpus, { byFile: new Map(), positional: new Map(), position });
}

const candidate = (e: KnowledgeEntry): AliasCandidate => ({ id: e.id, file: e.file, line: e.line, title: e.title });

/** What an entry's id, store, file and line alone imply it answers to (no corpus needed). */
export interface EntryRef {
  id: string;
  store: 'spec' | 'knowhow';
  file: string;
  line: number | null;
  explicitId?: string | null;
}

/**
 * The aliases that do not drift: `spec:{id}` (and `legacy:{file}:{line}` for an entry without a
 * sid), or `knowhow:{slug}`, the explicit id and the file stem. Search prints these; positional
 * ids are accepted everywhere but only `entryAliases` lists them, since they move.
 */
export function stableAliases(e: EntryRef): string[] {
  if (e.store === 'knowhow') {
    const slug = e.id.replace(/^knowhow-/, '');
    return [...new Set([`knowhow:${slug}`, ...(e.explicitId ? [e.explicitId] : []), fileStem(e.file)])].filter(
      (a) => a !== e.id,
    );
  }
  const out = [`spec:${e.id}`];
  if (e.id.startsWith('D-') && e.line !== null) out.push(`legacy:${e.file.replace(/^specs\//, '')}:${e.line}`);
  return out;
}

/** Every alias an entry answers to besides its id, as maestro-flow's tools print them (positional included). */
export function entryAliases(corpus: Corpus, entry: KnowledgeEntry): string[] {
  const out = stableAliases(entry);
  const pos = entry.store === 'spec' ? aliasTables(corpus).position.get(entry) : undefined;
  if (pos) out.splice(1, 0, pos);
  return out;
}

/** The stable graph node id of an entry: `spec:<id>` or `knowhow:<slug>` (maestro-flow's knowhow node id). */
export function entryGraphId(entry: Pick<EntryRef, 'id' | 'store'>): string {
  return entry.store === 'spec' ? `spec:${entry.id}` : `knowhow:${entry.id.replace(/^knowhow-/, '')}`;
}

function positional(corpus: Corpus, ref: string, options: ResolveRefOptions): RefResolution | null {
  const m = POSITIONAL.exec(ref);
  if (!m) return null;
  if (m[1].toLowerCase() !== 'project') return { kind: 'unknown' };
  const t = aliasTables(corpus);
  const stem = m[2];
  const n = Number(m[3]);
  const files = [...t.byFile.keys()].filter((f) => fileStem(f) === stem);
  const loose = files.length
    ? files
    : [...t.byFile.keys()].filter((f) => fileStem(f).toLowerCase() === stem.toLowerCase());
  // `spec:project:notes-001` is also the container id of a file named notes-001.md.
  const containers = [...t.byFile.keys()].filter(
    (f) => slugify(fileStem(f), 1000) === `${slugify(stem, 1000)}-${m[3]}`,
  );
  if (loose.length > 1 || (loose.length === 1 && containers.length > 0)) {
    const all = [...loose, ...containers];
    return {
      kind: 'ambiguous',
      ref,
      reason: `it can name an entry of ${all.map((f) => `.workflow/${f}`).join(' or ')}`,
      candidates: all.flatMap((f) => (t.byFile.get(f) ?? []).slice(0, 3).map(candidate)),
    };
  }
  if (loose.length === 0) return { kind: 'unknown' };
  const list = positionalIds(t.byFile.get(loose[0])!);
  const entry = list.get(`spec:project:${fileStem(loose[0])}-${m[3]}`);
  const ordered = [...list.values()];
  if (!entry) {
    return {
      kind: 'drifted',
      ref,
      reason: `.workflow/${loose[0]} has ${ordered.length} entries now, so position ${n} no longer exists (entries were removed)`,
      candidates: ordered.slice(-3).map(candidate),
    };
  }
  const recorded = options.recordedAt?.slice(0, 10);
  if (recorded && entry.date && entry.date > recorded) {
    const older = ordered.filter((e) => !e.date || e.date <= recorded);
    return {
      kind: 'drifted',
      ref,
      reason: `it was recorded on ${recorded}, but position ${n} of .workflow/${loose[0]} now holds an entry dated ${entry.date} (entries were inserted)`,
      candidates: older.slice(Math.max(0, n - 3), n + 1).map(candidate),
    };
  }
  return { kind: 'entry', entry, alias: { ref, form: 'positional' } };
}

function legacy(corpus: Corpus, ref: string): RefResolution | null {
  const m = LEGACY.exec(ref);
  if (!m) return null;
  const file = m[1].replace(/\\/g, '/').replace(/^\.workflow\//, '');
  const rel = file.includes('/') ? file : `specs/${file}`;
  const line = Number(m[2]);
  const hits = corpus.entries.filter((e) => e.store === 'spec' && e.file === rel && e.line === line);
  return hits.length === 1 ? { kind: 'entry', entry: hits[0], alias: { ref, form: 'legacy' } } : { kind: 'unknown' };
}

function knowhow(corpus: Corpus, ref: string, bare: string): KnowledgeEntry[] {
  const base = bare.slice(bare.lastIndexOf('/') + 1).replace(/\.md$/i, '');
  const slug = slugify(base, 1000);
  return corpus.entries.filter((e) => {
    if (e.store !== 'knowhow') return false;
    const stem = fileStem(e.file);
    return stem === base || e.explicitId === bare || e.id === `knowhow-${slug}` || e.id === ref;
  });
}

/**
 * Resolves a reference to one entry: the canonical id first, then maestro-flow's aliases (see
 * `AliasForm`), then a whole-id match ignoring letter case. Ambiguous and drifted positional ids
 * are not guessed: they come back with the candidates for the caller to refuse.
 */
export function resolveEntryRef(corpus: Corpus, raw: string, options: ResolveRefOptions = {}): RefResolution {
  const ref = raw.trim();
  const direct = corpus.byId.get(ref);
  if (direct) return { kind: 'entry', entry: direct, alias: null };
  const found = (entry: KnowledgeEntry, form: AliasForm): RefResolution => ({
    kind: 'entry',
    entry,
    alias: { ref, form },
  });
  const pos = positional(corpus, ref, options) ?? legacy(corpus, ref);
  if (pos && pos.kind !== 'unknown') return pos;
  const prefixed = /^(spec|knowhow):(.*)$/i.exec(ref);
  const store = prefixed ? prefixed[1].toLowerCase() : null;
  const bare = prefixed ? prefixed[2].trim() : ref;
  if (store !== 'knowhow') {
    const e = corpus.byId.get(bare);
    if (e && e.store === 'spec') return found(e, 'spec-prefix');
  }
  if (store !== 'spec') {
    const hits = knowhow(corpus, ref, bare);
    if (hits.length === 1) return found(hits[0], 'knowhow');
    if (hits.length > 1) {
      return { kind: 'ambiguous', ref, reason: 'several knowhow files answer to it', candidates: hits.map(candidate) };
    }
  }
  const lower = bare.toLowerCase();
  const loose = corpus.entries.filter((e) => e.id.toLowerCase() === lower && (store === null || e.store === store));
  if (loose.length === 1) return found(loose[0], 'letter-case');
  if (loose.length > 1) {
    return {
      kind: 'ambiguous',
      ref,
      reason: 'it matches several ids in different letter case',
      candidates: loose.map(candidate),
    };
  }
  return { kind: 'unknown' };
}

/** "resolved alias X to Y" — the line commands print (stderr) when an alias was used. */
export function aliasNote(alias: { ref: string; form: AliasForm }, id: string): string {
  const why =
    alias.form === 'positional' ? ' (positional ids drift when entries are added or removed; use the id)' : '';
  return `resolved alias ${alias.ref} to ${id}${why}`;
}

/**
 * `resolveEntryRef` for commands: an entry, null when unknown, or exit 2 (`AMBIGUOUS_KNOWLEDGE_ID`
 * / `DRIFTED_KNOWLEDGE_ID`) listing the candidates. An alias used is pushed to `notes`.
 */
export function requireResolvedRef(
  corpus: Corpus,
  raw: string,
  notes?: string[],
  options: ResolveRefOptions = {},
): KnowledgeEntry | null {
  const r = resolveEntryRef(corpus, raw, options);
  if (r.kind === 'unknown') return null;
  if (r.kind === 'entry') {
    if (r.alias && notes) notes.push(aliasNote(r.alias, r.entry.id));
    return r.entry;
  }
  const list = r.candidates.map((c) => `${c.id} (.workflow/${c.file}${c.line ? `:${c.line}` : ''} "${c.title}")`);
  throw inputError(
    r.kind === 'ambiguous' ? 'AMBIGUOUS_KNOWLEDGE_ID' : 'DRIFTED_KNOWLEDGE_ID',
    `${r.ref} is ${r.kind === 'ambiguous' ? 'ambiguous' : 'a drifted positional id'}: ${r.reason}; candidates: ${list.join(', ') || 'none'}`,
    {
      hint: 'pass one of the candidate ids (sids do not drift); `maestro spec list` shows them',
      details: { ref: r.ref, candidates: r.candidates },
    },
  );
}
