import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Issue, sha256 } from '@maestro/core';
import { crashPoint, type WorkflowLayout } from '@maestro/fs';
import {
  type KnowledgeEntry,
  knowhowEntry,
  knowhowIdFor,
  parseKnowhowFile,
  parseSpecFile,
  specFileEntries,
} from '@maestro/spec';
import { type DerivedStore, type Statement, tryWrite } from '@maestro/store';
import { docKeys, isIndexed, isRetired } from '../matcher/corpus-index.js';
import { exactKey, matchNormalize } from '../matcher/text.js';
import type { CorpusState } from '../receipt/fingerprint.js';
import { entryHash } from '../receipt/revalidate.js';
import {
  comparePaths,
  type DocRow,
  decode,
  encode,
  type FileRow,
  keyHash,
  MATCH_SECTION,
  REF,
  SLOT,
  strip,
} from './match-rows.js';
import { ranks, StoreIndex } from './store-index.js';

/**
 * A parsed file's new rows. `row` is null when the stored row at that position already has this
 * signature (nothing to derive); `keys` holds the retrieval keys of an active row not seen before.
 */
interface PlannedRow {
  entry: KnowledgeEntry;
  sig: string;
  row: Omit<DocRow, 'key' | 'terms'> | null;
  termIds: number[] | null;
  keys: string[] | null;
}

interface FilePlan {
  path: string;
  sha256: string;
  rows: PlannedRow[];
}

/** One corpus file's entries, exactly as `loadCorpus` reads them before its corpus-wide passes. */
export function parseCorpusFile(path: string, text: string): KnowledgeEntry[] {
  const issues: Issue[] = [];
  const issueFile = `.workflow/${path}`;
  if (path.startsWith('specs/')) return specFileEntries(parseSpecFile(text, issueFile).value, path, issueFile, issues);
  return [knowhowEntry(parseKnowhowFile(text, issueFile).value, path, issues)];
}

/** A hash of every entry field a stored row is derived from: equal signatures, equal rows. */
function signature(e: KnowledgeEntry): string {
  const fields = [
    e.id,
    e.store,
    e.status,
    e.title,
    e.content,
    e.line,
    e.contentHash,
    e.supersedes,
    e.supersededBy,
    e.ref,
  ];
  return sha256(JSON.stringify(fields)).slice(0, 32);
}

function rowOf(e: KnowledgeEntry, sig = signature(e)): Omit<DocRow, 'key' | 'terms'> {
  const active = isIndexed(e);
  const retired = isRetired(e);
  const exact = active || retired ? exactKey(e.content) : null;
  const titleKey = active ? matchNormalize(e.title ?? '') : '';
  const supersedes = JSON.stringify(e.supersedes ?? []);
  const base = {
    raw_id: e.id,
    id: e.id,
    store: e.store,
    status: e.status,
    title: e.title ?? '',
    content: e.content,
    line: e.line ?? null,
    content_hash: e.contentHash,
    raw_supersedes: supersedes,
    raw_superseded_by: e.supersededBy ?? null,
    supersedes,
    superseded_by: e.supersededBy ?? null,
    ref: e.ref ?? null,
    active: active ? 1 : 0,
    retired: retired ? 1 : 0,
    exact_hash: exact === null ? null : keyHash(`${e.store}\u0000${exact}`),
    title_hash: titleKey ? keyHash(titleKey) : null,
    entry_hash: entryHash({
      status: e.status,
      contentHash: e.contentHash,
      title: e.title,
      file: e.file,
      supersededBy: e.supersededBy ?? null,
    }),
    text_hash: sha256(`${e.content}\n${e.title ?? ''}`).slice(0, 32),
  };
  return { ...base, sig };
}

// --- derivation ---

interface Stmts {
  fileByPath: Statement;
  insertFile: Statement;
  setFileSha: Statement;
  deleteFile: Statement;
  docsOfSlot: Statement;
  putDoc: Statement;
  deleteDoc: Statement;
  termByName: Statement;
  insertTerm: Statement;
  termPostings: Statement;
  setTermPostings: Statement;
  deleteLinks: Statement;
  insertLink: Statement;
}

function statements(store: DerivedStore): Stmts {
  const p = (sql: string) => store.prepare(sql);
  return {
    fileByPath: p('SELECT file_id, sha256 FROM match_files WHERE path = ?'),
    insertFile: p('INSERT INTO match_files (path, sha256, entries) VALUES (?, ?, ?)'),
    setFileSha: p('UPDATE match_files SET sha256 = ?, entries = ? WHERE file_id = ?'),
    deleteFile: p('DELETE FROM match_files WHERE file_id = ?'),
    docsOfSlot: p('SELECT key, text_hash, active, sig, terms FROM match_docs WHERE key >= ? AND key < ?'),
    putDoc: p(
      `INSERT OR REPLACE INTO match_docs (key, raw_id, id, store, status, title, content, line, content_hash,
         raw_supersedes, raw_superseded_by, supersedes, superseded_by, ref, active, retired, exact_hash, title_hash,
         entry_hash, text_hash, sig, terms)
       VALUES (@key, @raw_id, @id, @store, @status, @title, @content, @line, @content_hash, @raw_supersedes,
         @raw_superseded_by, @supersedes, @superseded_by, @ref, @active, @retired, @exact_hash, @title_hash,
         @entry_hash, @text_hash, @sig, @terms)`,
    ),
    deleteDoc: p('DELETE FROM match_docs WHERE key = ?'),
    termByName: p('SELECT term_id FROM match_terms WHERE term = ?'),
    insertTerm: p("INSERT INTO match_terms (term, df, docs) VALUES (?, 0, x'')"),
    termPostings: p('SELECT df, docs FROM match_terms WHERE term_id = ?'),
    setTermPostings: p('UPDATE match_terms SET df = ?, docs = ? WHERE term_id = ?'),
    deleteLinks: p('DELETE FROM match_links WHERE key = ?'),
    insertLink: p('INSERT OR IGNORE INTO match_links (target, key) VALUES (?, ?)'),
  };
}

interface OldDoc {
  key: number;
  text_hash: string;
  active: number;
  sig: string;
  terms: Buffer | null;
}

/** Reads and parses one changed file (outside any transaction) and reuses the retrieval keys of texts it already had. */
function planFile(s: Stmts, layout: WorkflowLayout, path: string, sha: string, bytes: Buffer | null): FilePlan | null {
  const buf = bytes ?? readFileSync(join(layout.workflow, path));
  if (!bytes && sha256(buf) !== sha) return null; // changed since it was fingerprinted
  const entries = parseCorpusFile(path, buf.toString('utf8'));
  const known = new Map<string, Buffer>();
  const sigs = new Map<number, string>();
  const file = s.fileByPath.get(path) as { file_id: number } | undefined;
  if (file) {
    for (const o of s.docsOfSlot.all(file.file_id * SLOT, (file.file_id + 1) * SLOT) as OldDoc[]) {
      if (o.active && o.terms) known.set(o.text_hash, o.terms);
      sigs.set(o.key - file.file_id * SLOT, o.sig);
    }
  }
  const rows = entries.map((e, pos) => planRow(e, sigs.get(pos) ?? null, known));
  return { path, sha256: sha, rows };
}

function planRow(e: KnowledgeEntry, oldSig: string | null, known: ReadonlyMap<string, Buffer>): PlannedRow {
  const sig = signature(e);
  if (sig === oldSig) return { entry: e, sig, row: null, termIds: null, keys: null };
  const row = rowOf(e, sig);
  if (!row.active) return { entry: e, sig, row, termIds: null, keys: null };
  const reuse = known.get(row.text_hash);
  if (reuse) return { entry: e, sig, row, termIds: decode(reuse), keys: null };
  return { entry: e, sig, row, termIds: null, keys: docKeys(e).map(intern) };
}

/** One string per retrieval key while a sync holds planned rows (documents share a small vocabulary). */
const interned = new Map<string, string>();
function intern(key: string): string {
  const hit = interned.get(key);
  if (hit !== undefined) return hit;
  if (interned.size >= 500_000) interned.clear();
  interned.set(key, key);
  return key;
}

/** Postings changes of one transaction, applied term by term at the end. */
class PostingsDelta {
  /** Change in the number of active documents. */
  active = 0;
  readonly add = new Map<number, number[]>();
  readonly remove = new Map<number, Set<number>>();
  added(termId: number, key: number) {
    const list = this.add.get(termId);
    if (list) list.push(key);
    else this.add.set(termId, [key]);
  }
  removed(termId: number, key: number) {
    const set = this.remove.get(termId);
    if (set) set.add(key);
    else this.remove.set(termId, new Set([key]));
  }
  apply(s: Stmts) {
    const ids = new Set([...this.add.keys(), ...this.remove.keys()]);
    for (const id of ids) {
      const row = s.termPostings.get(id) as { df: number; docs: Buffer };
      const gone = this.remove.get(id);
      const list = decode(row.docs).filter((k) => !gone?.has(k));
      const more = this.add.get(id);
      if (more) for (const k of more) list.push(k);
      list.sort((a, b) => a - b);
      s.setTermPostings.run(list.length, encode(list), id);
    }
  }
}

function termIdOf(s: Stmts, cache: Map<string, number>, term: string): number {
  let id = cache.get(term);
  if (id !== undefined) return id;
  const row = s.termByName.get(term) as { term_id: number } | undefined;
  id = row ? row.term_id : Number(s.insertTerm.run(term).lastInsertRowid);
  cache.set(term, id);
  return id;
}

function linkTargets(row: Pick<DocRow, 'supersedes' | 'superseded_by' | 'ref' | 'active'>): string[] {
  if (!row.active) return [];
  const out = (JSON.parse(row.supersedes) as string[]).filter(Boolean);
  if (row.superseded_by) out.push(row.superseded_by);
  if (row.ref) out.push(`${REF}${strip(row.ref)}`);
  return out;
}

function writeLinks(s: Stmts, key: number, row: Pick<DocRow, 'supersedes' | 'superseded_by' | 'ref' | 'active'>) {
  s.deleteLinks.run(key);
  for (const t of linkTargets(row)) s.insertLink.run(t, key);
}

/** Applies one planned file inside the write transaction; false when another process already did. */
function applyFile(s: Stmts, plan: FilePlan, delta: PostingsDelta, terms: Map<string, number>): boolean {
  const file = s.fileByPath.get(plan.path) as { file_id: number; sha256: string } | undefined;
  if (file?.sha256 === plan.sha256) return false;
  const fid = file ? file.file_id : Number(s.insertFile.run(plan.path, plan.sha256, plan.rows.length).lastInsertRowid);
  if (plan.rows.length >= SLOT) throw new Error(`${plan.path} has more than ${SLOT} entries`);
  const old = new Map<number, OldDoc>();
  for (const o of s.docsOfSlot.all(fid * SLOT, (fid + 1) * SLOT) as OldDoc[]) old.set(o.key, o);
  plan.rows.forEach((planned, pos) => {
    const key = fid * SLOT + pos;
    const o = old.get(key);
    old.delete(key);
    if (o?.sig === planned.sig) return; // the stored row is this entry's
    // Planned against rows another process has changed since: derive this row now.
    const p = planned.row ? planned : planRow(planned.entry, null, new Map());
    const row = p.row as Omit<DocRow, 'key' | 'terms'>;
    const ids = row.active ? (p.termIds ?? (p.keys ?? []).map((t) => termIdOf(s, terms, t))) : null;
    delta.active += row.active - (o?.active ?? 0);
    const samePostings = o && o.active === 1 && row.active === 1 && o.text_hash === row.text_hash;
    if (!samePostings) {
      if (o?.active) for (const id of decode(o.terms)) delta.removed(id, key);
      if (ids) for (const id of ids) delta.added(id, key);
    }
    const blob = ids ? encode([...new Set(ids)].sort((a, b) => a - b)) : null;
    s.putDoc.run({ ...row, key, terms: blob });
    writeLinks(s, key, row);
  });
  for (const o of old.values()) dropDoc(s, o, delta);
  if (file) s.setFileSha.run(plan.sha256, plan.rows.length, fid);
  return true;
}

function dropDoc(s: Stmts, o: OldDoc, delta: PostingsDelta) {
  delta.active -= o.active;
  if (o.active) for (const id of decode(o.terms)) delta.removed(id, o.key);
  s.deleteDoc.run(o.key);
  s.deleteLinks.run(o.key);
}

function dropFile(s: Stmts, fid: number, delta: PostingsDelta) {
  for (const o of s.docsOfSlot.all(fid * SLOT, (fid + 1) * SLOT) as OldDoc[]) dropDoc(s, o, delta);
  s.deleteFile.run(fid);
}

/**
 * The corpus-wide passes of `loadCorpus` over the stored rows: an id written twice keeps it on
 * the first entry in corpus order and later copies become `<id>~2`, `~3`...; a knowhow link that
 * names no id but a document's file stem reads as that document's id. Only the rows involved are
 * read (ids with duplicates or a `~`, knowhow rows with links).
 */
function corpusPasses(store: DerivedStore, s: Stmts) {
  const files = store.prepare('SELECT file_id, path FROM match_files').all() as FileRow[];
  const rankOfFile = new Map(
    files.sort((a, b) => comparePaths(a.path, b.path)).map((f, rank) => [f.file_id, rank] as const),
  );
  const order = (key: number) => (rankOfFile.get(Math.floor(key / SLOT)) ?? 0) * SLOT + (key % SLOT);
  // A copy not yet renamed shares its id with the first; renamed copies and `~` ids are indexed.
  const involved = store
    .prepare(
      `SELECT key, raw_id, id FROM match_docs
       WHERE id IN (SELECT id FROM match_docs INDEXED BY match_docs_id GROUP BY id HAVING count(*) > 1)
       UNION
       SELECT key, raw_id, id FROM match_docs INDEXED BY match_docs_renamed
       WHERE id != raw_id OR instr(raw_id, '~') > 0`,
    )
    .all() as { key: number; raw_id: string; id: string }[];
  // With every other member of their groups: the one still holding the id itself.
  const keys = new Set(involved.map((r) => r.key));
  const holder = store.prepare('SELECT key, raw_id, id FROM match_docs WHERE id = ?');
  for (const raw of new Set(involved.map((r) => r.raw_id))) {
    for (const r of holder.all(raw) as typeof involved) {
      if (keys.has(r.key)) continue;
      keys.add(r.key);
      involved.push(r);
    }
  }
  involved.sort((a, b) => order(a.key) - order(b.key));
  const seen = new Set<string>();
  const setId = store.prepare('UPDATE match_docs SET id = ? WHERE key = ?');
  for (const r of involved) {
    let id = r.raw_id;
    if (seen.has(id)) {
      let n = 2;
      while (seen.has(`${id}~${n}`)) n++;
      id = `${id}~${n}`;
    }
    seen.add(id);
    if (id !== r.id) setId.run(id, r.key);
  }
  const byId = store.prepare('SELECT store FROM match_docs WHERE id = ? LIMIT 1');
  const resolve = (v: string) => {
    if (byId.get(v)) return v;
    const id = knowhowIdFor(v.trim());
    return (byId.get(id) as { store: string } | undefined)?.store === 'knowhow' ? id : v;
  };
  const linked = store
    .prepare(
      `SELECT key, status, content_hash, title, raw_supersedes, raw_superseded_by, supersedes, superseded_by, ref, active
       FROM match_docs WHERE store = 'knowhow' AND (raw_superseded_by IS NOT NULL OR raw_supersedes != '[]')`,
    )
    .all() as (DocRow & { key: number })[];
  const setLinks = store.prepare(
    'UPDATE match_docs SET supersedes = ?, superseded_by = ?, entry_hash = ? WHERE key = ?',
  );
  const fileOf = store.prepare('SELECT path FROM match_files WHERE file_id = ?');
  for (const r of linked) {
    const raw = JSON.parse(r.raw_supersedes) as string[];
    const supersedes = JSON.stringify(raw.length ? raw.map(resolve) : raw);
    const supersededBy = r.raw_superseded_by ? resolve(r.raw_superseded_by) : r.raw_superseded_by;
    if (supersedes === r.supersedes && supersededBy === r.superseded_by) continue;
    const file = (fileOf.get(Math.floor(r.key / SLOT)) as { path: string }).path;
    const hash = entryHash({
      status: r.status,
      contentHash: r.content_hash,
      title: r.title,
      file,
      supersededBy,
    });
    setLinks.run(supersedes, supersededBy, hash, r.key);
    writeLinks(s, r.key, { supersedes, superseded_by: supersededBy, ref: r.ref, active: r.active });
  }
}

/** Parsed rows held before they are written (one transaction each; each leaves the section consistent). */
const BATCH_ROWS = 10_000;

/**
 * Writes parsed files (and drops removed ones) in one transaction: rows, postings patched term by
 * term, the corpus-wide passes and the active count. Each file is re-checked inside the
 * transaction, so a file another process already wrote is skipped. False when the store refused.
 */
function applyBatch(store: DerivedStore, s: Stmts, plans: readonly FilePlan[], gone: readonly FileRow[]): boolean {
  return tryWrite(store, () => {
    const delta = new PostingsDelta();
    const terms = new Map<string, number>();
    let changed = false;
    for (const plan of plans) changed = applyFile(s, plan, delta, terms) || changed;
    for (const g of gone) {
      const row = s.fileByPath.get(g.path) as { file_id: number } | undefined;
      if (row) {
        dropFile(s, row.file_id, delta);
        changed = true;
      }
    }
    if (!changed) return;
    delta.apply(s);
    corpusPasses(store, s);
    store
      .prepare(
        "INSERT INTO match_meta (name, value) VALUES ('active', ?) ON CONFLICT (name) DO UPDATE SET value = value + ?",
      )
      .run(delta.active, delta.active);
    // Any change moves the generation: an index kept by a long-lived process knows it is out of date.
    store
      .prepare(
        "INSERT INTO match_meta (name, value) VALUES ('generation', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1",
      )
      .run();
    crashPoint('reconcile:match:before-commit');
  });
}

export interface MatchStoreResult {
  index: StoreIndex;
  /** Files parsed this time (0: every file's rows were current). */
  parsed: number;
}

/**
 * Brings the `match` section up to date with a corpus state and returns the store-backed index:
 * only files whose content hash changed are parsed (from the bytes the fingerprint already read),
 * and only their entries whose text is new are analysed; postings and document frequencies are
 * patched term by term. Parsing happens outside the write transaction; the transaction re-checks
 * each file, so two processes refreshing at once derive and write each file once. Null when the
 * store cannot take the rows (the caller answers from the text files in memory).
 */
export function syncMatchSection(layout: WorkflowLayout, state: CorpusState): MatchStoreResult | null {
  const { store } = state;
  try {
    store.section(MATCH_SECTION);
  } catch {
    return null;
  }
  const s = statements(store);
  const stored = new Map(
    (store.prepare('SELECT file_id, path, sha256 FROM match_files').all() as FileRow[]).map((r) => [r.path, r]),
  );
  const current = new Set(state.states.map((f) => f.path));
  let batch: FilePlan[] = [];
  let rows = 0;
  let parsed = 0;
  const flush = (gone: FileRow[]) => {
    const ok = applyBatch(store, s, batch, gone);
    batch = [];
    rows = 0;
    return ok;
  };
  for (const f of state.states) {
    if (stored.get(f.path)?.sha256 === f.sha256) continue;
    const plan = planFile(s, layout, f.path, f.sha256, f.bytes);
    (f as { bytes: Buffer | null }).bytes = null; // parsed: the bytes are not needed again
    if (!plan) return null;
    parsed++;
    batch.push(plan);
    rows += plan.rows.length;
    // Bounded memory: a batch of parsed files is written before more are parsed.
    if (rows >= BATCH_ROWS && !flush([])) return null;
  }
  const gone = [...stored.values()].filter((r) => !current.has(r.path));
  if ((batch.length > 0 || gone.length > 0) && !flush(gone)) return null;
  const { layout: numbering, current: fresh } = ranks(store, state);
  if (!fresh) return null; // another process moved the rows to another corpus state meanwhile
  return { index: new StoreIndex(store, numbering), parsed };
}
