import { sha256 } from '@maestro/core';
import { type SpecSplice, saveGrownSpecRows, saveSplicedSpecRows, scanSpecRows } from '@maestro/spec';
import type { DerivedStore } from '@maestro/store';
import { EntryDeriver, locate, resumable, resumeChunks } from './match-derive.js';
import {
  ACTIVE,
  type BodyColumns,
  chunkHash,
  type DirColumns,
  HASH_BYTES,
  type ResumeInfo,
  SLOT,
  TermsBlob,
  TermsWriter,
} from './match-rows.js';

/**
 * A changed spec file re-derived in part: its old entries `[pa, pb)` replaced by `mid` (derived
 * from the changed bytes only), the entries from `pb` on kept, moved by `shift`.
 */
export interface Splice {
  path: string;
  fid: number;
  oldSha: string;
  sha256: string;
  pa: number;
  pb: number;
  mid: EntryDeriver;
  /** How many entries the middle holds. */
  count: number;
  /** The kept entries after the middle: bytes, lines and positions they moved by. */
  shift: { bytes: number; lines: number; entries: number };
  /** Kept entries after the middle whose content is found elsewhere than moved (old position → byte offset, -1 inline). */
  moved: Map<number, { at: number; len: number; content: string }>;
  resume: ResumeInfo;
  /** The new text, when the file only grew (its spec rows follow from the new end). */
  grown: { text: string; size: number } | null;
  /** The file's `spec` rows, when it changed otherwise than at its end. */
  spec: SpecSplice | null;
  /** The stored row's columns the plan read (the row is the one with `oldSha`). */
  dir: DirColumns;
  body: BodyColumns;
}

interface StoredRow {
  entries: number;
  dir: string;
  body: string;
  resume: string | null;
}

/**
 * Plans re-deriving a changed spec file from its stored row's chunks: the chunks whose bytes
 * are unchanged at the start and at the end (moved by the size change) keep their entries;
 * the bytes between are scanned as a whole scan would reach them, and only their entries are
 * derived. Null when that cannot be vouched for (no chunks, the first chunk changed, the
 * changed part holds anything but clean blocks with their own ids, or an id it gives is also
 * another entry's): the file is then derived whole.
 */
export function planSplice(
  store: DerivedStore,
  fid: number,
  oldSha: string,
  path: string,
  sha: string,
  bytes: Buffer,
): Splice | null {
  const row = store
    .prepare('SELECT entries, dir, body, resume FROM match_files WHERE file_id = ? AND sha256 = ?')
    .get(fid, oldSha) as StoredRow | undefined;
  if (!row?.resume) return null;
  const r = JSON.parse(row.resume) as ResumeInfo;
  const n = r.chunks.length;
  const delta = bytes.length - r.size;
  const endOf = (k: number) => (k < 0 ? 0 : r.chunks[k][1]);
  // The unchanged chunks from the start.
  let a = 0;
  const grew = delta > 0 && sha256(bytes.subarray(0, r.size)) === oldSha;
  if (grew) a = n;
  else {
    while (a < n && endOf(a) <= bytes.length && chunkHash(bytes.subarray(endOf(a - 1), endOf(a))) === r.chunks[a][4]) {
      a++;
    }
  }
  if (a === 0) return null;
  const fromByte = endOf(a - 1);
  // The unchanged chunks from the end, after the unchanged bytes after the last chunk.
  let b = n;
  const trailAt = endOf(n - 1) + delta;
  const suffix =
    !grew && trailAt >= fromByte && trailAt <= bytes.length && chunkHash(bytes.subarray(trailAt)) === r.trail;
  if (suffix) {
    while (b - 1 >= a) {
      const start = endOf(b - 2) + delta;
      if (start < fromByte || chunkHash(bytes.subarray(start, endOf(b - 1) + delta)) !== r.chunks[b - 1][4]) break;
      b--;
    }
  }
  const text = bytes.toString('utf8');
  const ascii = text.length === bytes.length;
  const from = r.chunks[a - 1][2];
  const stopByte = suffix ? endOf(b - 1) + delta : bytes.length;
  const stop = ascii ? stopByte : from + bytes.toString('utf8', fromByte, stopByte).length;
  if (!ascii && text.slice(from, stop).includes('\uFFFD')) return null;
  const line = r.chunks[a - 1][3];
  const seed = { offset: from, line, lineStart: text.lastIndexOf('\n', from - 1) + 1 };
  const scanned = scanSpecRows(suffix ? text.slice(0, stop) : text, path, {
    from,
    defaultCategory: r.category,
    seed,
  });
  const m = scanned.entries.length;
  if (suffix) {
    // The scan of the middle must end where the kept part starts, after a block, as a whole scan would.
    if (scanned.parseIssues > 0) return null;
    const ends =
      m > 0
        ? resumable(scanned.entries[m - 1], scanned.spots[m - 1]) && scanned.spots[m - 1].end === stop
        : from === stop;
    if (!ends) return null;
  }
  const pa = r.chunks[a - 1][0];
  const pb = suffix ? (b > a ? r.chunks[b - 1][0] : pa) : row.entries;
  const dir = JSON.parse(row.dir) as DirColumns;
  // Ids the middle derives must be no other entry's (a twin would number the later ones).
  const others = new Set<string>();
  for (let p = 0; p < row.entries; p++) if (p < pa || p >= pb) others.add(dir.id[p]);
  for (const e of scanned.entries) {
    if (e.hasSid) continue;
    if (others.has(e.id)) return null;
    others.add(e.id);
  }
  const body = JSON.parse(row.body) as BodyColumns;
  const bytesOf = (c: number) =>
    ascii
      ? c
      : c >= from
        ? fromByte + Buffer.byteLength(text.slice(from, c))
        : fromByte - Buffer.byteLength(text.slice(c, from));
  const charOf = (x: number) =>
    ascii
      ? x
      : x >= fromByte
        ? from + bytes.toString('utf8', fromByte, x).length
        : from - bytes.toString('utf8', x, fromByte).length;
  // The content search resumes where a whole derive's would: after the last content found before the middle.
  let last = pa - 1;
  while (last >= 0 && body.at[last] < 0) last--;
  const cursor =
    last < 0
      ? { chars: 0, byteCursor: 0, charAtByteCursor: 0 }
      : {
          chars: charOf(body.at[last] + body.len[last]),
          byteCursor: body.at[last],
          charAtByteCursor: charOf(body.at[last]),
        };
  const mid = new EntryDeriver(text, ascii, true, m, null, cursor);
  for (const e of scanned.entries) mid.add(e);
  // The kept entries after the middle: their contents looked for again until the search is back in step.
  const moved = new Map<number, { at: number; len: number; content: string }>();
  const lines = lineAt(text, from, stop, line) - (suffix ? r.chunks[b - 1][3] : 0);
  if (suffix) {
    let chars = mid.cursor.chars;
    for (let p = pb; p < row.entries; p++) {
      const oldAt = body.at[p];
      const content = oldAt >= 0 ? bytes.toString('utf8', oldAt + delta, oldAt + delta + body.len[p]) : body.inline[p];
      const at = locate(text, content, chars);
      const atByte = at >= 0 ? bytesOf(at) : -1;
      const same = oldAt >= 0 ? atByte === oldAt + delta : at < 0;
      if (!same) moved.set(p, { at: atByte, len: at >= 0 ? Buffer.byteLength(content) : 0, content });
      if (at >= 0) chars = at + content.length;
      if (same && at >= 0) break;
    }
  }
  const midChunks = resumeChunks(bytes, text, ascii, scanned, { entries: pa, byte: fromByte, char: from, line });
  if (!midChunks) return null;
  const shift = { bytes: delta, lines, entries: pa + m - pb };
  const chunks = r.chunks.slice(0, a);
  for (const c of midChunks) chunks.push(c);
  if (suffix) {
    for (const c of r.chunks.slice(b)) {
      chunks.push([c[0] + shift.entries, c[1] + delta, c[2] + (stop - r.chunks[b - 1][2]), c[3] + lines, c[4]]);
    }
  }
  const lastEnd = chunks[chunks.length - 1][1];
  const resume: ResumeInfo = {
    size: bytes.length,
    category: r.category,
    chunks,
    trail: suffix ? r.trail : chunkHash(bytes.subarray(lastEnd)),
  };
  const spec: SpecSplice | null = grew
    ? null
    : {
        file: path,
        oldSha,
        sha256: sha,
        size: bytes.length,
        pa,
        pb,
        entries: scanned.entries,
        spots: scanned.spots,
        issues: scanned.issues,
        parseIssues: scanned.parseIssues,
        byteOf: bytesOf,
        cut: { line, column: from - seed.lineStart + 1 },
        keptLine: suffix ? r.chunks[b - 1][3] : null,
        shift: { chars: suffix ? stop - r.chunks[b - 1][2] : 0, bytes: delta, lines, entries: shift.entries },
      };
  return {
    spec,
    path,
    fid,
    oldSha,
    sha256: sha,
    pa,
    pb,
    mid,
    count: m,
    shift,
    moved,
    resume,
    grown: grew ? { text, size: bytes.length } : null,
    dir,
    body,
  };
}

/** The 1-based line at `to`, counting from `from` whose line is `line`. */
function lineAt(text: string, from: number, to: number, line: number): number {
  let n = line;
  for (let nl = text.indexOf('\n', from); nl !== -1 && nl < to; nl = text.indexOf('\n', nl + 1)) n++;
  return n;
}

/** What applying a splice needs of the transaction: term ids, postings changes, the row writer. */
export interface SpliceSink {
  idOf(term: string): number;
  added(termId: number, key: number): void;
  removed(termId: number, key: number): void;
  active(change: number): void;
  put(
    fid: number,
    path: string,
    sha: string,
    entries: number,
    dir: string,
    body: string,
    hashes: Buffer,
    terms: Buffer,
    resume: string,
  ): void;
}

/**
 * Writes a planned splice inside the write transaction: the kept entries' rows and retrieval
 * keys as stored, the middle's derived, postings patched for every position whose keys moved.
 * False when the stored row is no longer the one it was planned on.
 */
export function applySplice(store: DerivedStore, sp: Splice, sink: SpliceSink): boolean {
  const r = store
    .prepare('SELECT entries, hashes, terms FROM match_files WHERE file_id = ? AND sha256 = ?')
    .get(sp.fid, sp.oldSha) as { entries: number; hashes: Buffer; terms: Buffer } | undefined;
  if (!r) return false;
  const { pa, pb, mid, count, shift } = sp;
  const oldN = r.entries;
  const newN = pa + count + (oldN - pb);
  if (newN >= SLOT) throw new Error(`${sp.path} has more than ${SLOT} entries`);
  const { dir, body } = sp;
  const join = <T>(old: T[], fresh: T[], map?: (v: T) => T): T[] => {
    const out = old.slice(0, pa).concat(fresh);
    for (let p = pb; p < oldN; p++) out.push(map ? map(old[p]) : old[p]);
    return out;
  };
  const nd: DirColumns = {
    id: join(dir.id, mid.dir.id),
    status: join(dir.status, mid.dir.status),
    flags: join(dir.flags, mid.dir.flags),
    sup: join(dir.sup, mid.dir.sup),
    by: join(dir.by, mid.dir.by),
    ref: join(dir.ref, mid.dir.ref),
  };
  const inline: Record<string, string> = {};
  for (const [k, v] of Object.entries(body.inline)) {
    const p = Number(k);
    if (p < pa) inline[k] = v;
    else if (p >= pb) inline[p + shift.entries] = v;
  }
  for (const [k, v] of Object.entries(mid.body.inline)) inline[Number(k) + pa] = v;
  const nb: BodyColumns = {
    title: join(body.title, mid.body.title),
    line: join(body.line, mid.body.line, (l) => (l ? l + shift.lines : 0)),
    at: join(body.at, mid.body.at, (x) => (x >= 0 ? x + shift.bytes : x)),
    len: join(body.len, mid.body.len),
    inline,
  };
  for (const [p, m] of sp.moved) {
    const q = p + shift.entries;
    nb.at[q] = m.at;
    nb.len[q] = m.len;
    if (m.at < 0) nb.inline[q] = m.content;
    else delete nb.inline[q];
  }
  const hashes = Buffer.concat([
    r.hashes.subarray(0, pa * HASH_BYTES),
    Buffer.from(mid.hashes.buffer, mid.hashes.byteOffset, mid.hashes.byteLength),
    r.hashes.subarray(pb * HASH_BYTES),
  ]);
  const old = new TermsBlob(r.terms, oldN);
  const out = new TermsWriter(newN);
  out.raw(old.rawRange(0, pa));
  const termIdx = mid.termIdx();
  const global = mid.vocab.map((t) => sink.idOf(t));
  const midIds: number[][] = [];
  for (let d = 0; d < count; d++) {
    const ids: number[] = [];
    if (mid.dir.flags[d] === ACTIVE)
      for (let k = mid.offsets[d]; k < mid.offsets[d + 1]; k++) ids.push(global[termIdx[k]]);
    midIds.push(ids);
    out.ids(ids);
  }
  out.raw(old.rawRange(pb, oldN));
  // Postings: every position from the middle on whose keys differ before and after.
  const fidKey = sp.fid * SLOT;
  const beforeAt = (p: number) => (p < oldN && dir.flags[p] === ACTIVE ? old.ids(p) : null);
  for (let p = pa; p < Math.max(oldN, newN); p++) {
    let after: number[] | null = null;
    if (p < pa + count) after = mid.dir.flags[p - pa] === ACTIVE ? midIds[p - pa] : null;
    else if (p < newN) {
      const q = p - shift.entries;
      if (shift.entries === 0) break; // the kept entries are where they were
      after = dir.flags[q] === ACTIVE ? old.ids(q) : null;
    }
    const before = beforeAt(p);
    sink.active((after ? 1 : 0) - (before ? 1 : 0));
    const key = fidKey + p;
    const gone = new Set(before ?? []);
    const now = new Set(after ?? []);
    for (const id of gone) if (!now.has(id)) sink.removed(id, key);
    for (const id of now) if (!gone.has(id)) sink.added(id, key);
  }
  sink.put(
    sp.fid,
    sp.path,
    sp.sha256,
    newN,
    JSON.stringify(nd),
    JSON.stringify(nb),
    hashes,
    out.bytes(),
    JSON.stringify(sp.resume),
  );
  if (sp.grown) saveGrownSpecRows(store, sp.path, sp.grown.text, sp.grown.size, sp.sha256, sp.oldSha);
  if (sp.spec) saveSplicedSpecRows(store, sp.spec);
  return true;
}
