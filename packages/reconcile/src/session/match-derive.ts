import { sha256 } from '@maestro/core';
import {
  type EncodedSpecRow,
  type EntrySpot,
  type KnowledgeEntry,
  type ParsedFileRows,
  streamCorpusFileRows,
} from '@maestro/spec';
import { docKeys, isIndexed, isRetired } from '../matcher/corpus-index.js';
import { exactKey, matchNormalize } from '../matcher/text.js';
import { entryHash } from '../receipt/revalidate.js';
import {
  ACTIVE,
  type BodyColumns,
  CHUNK,
  chunkHash,
  type DirColumns,
  H_CHECK,
  H_ENTRY,
  H_EXACT,
  H_TEXT,
  H_TITLE,
  HASH_BYTES,
  keyHash,
  RETIRED,
  type ResumeInfo,
  textKey,
} from './match-rows.js';

/**
 * What an entry whose text is already stored can reuse: by its text key, the status and raw
 * successor its stored entry hash was made with (`status NUL by`).
 */
export type KnownTexts = ReadonlyMap<string, string>;

/** A file's entries derived for the `match` section (plain data: it crosses from a worker). */
export interface DerivedFile {
  path: string;
  sha256: string;
  entries: number;
  /**
   * JSON of the entries' `DirColumns` and `BodyColumns`, as the row stores them: made as each
   * file is derived, so the derived files of a whole corpus do not hold an array per column and a
   * string per entry (ids and titles cut from the file's text would keep that text alive).
   */
  dir: string;
  body: string;
  /** `DirColumns.flags`. */
  flags: Uint8Array;
  hashes: Uint8Array;
  /**
   * Per entry: 0 derived here (its retrieval keys are `vocab[termIdx[offsets[d] .. offsets[d+1]]]`),
   * 1 its text is known (exact/title hashes and keys to copy from the stored entry with its text
   * key), 2 like 1 and its entry hash too.
   */
  reuse: Uint8Array;
  vocab: string[];
  offsets: Uint32Array;
  termIdx: Uint32Array;
  /** The file's `spec` row from the same parse, saved with the match rows (one parse serves both sections). */
  spec: EncodedSpecRow;
  /** Where the file may be re-derived in part from (null: only whole). */
  resume: ResumeInfo | null;
}

/** How far past the previous entry's content the next content is looked for. */
const WINDOW = 1 << 16;

/** Where the content search of the next entry starts: a character offset and the byte offset it maps to. */
export interface Cursor {
  chars: number;
  byteCursor: number;
  charAtByteCursor: number;
}

/**
 * Derives entries one after the other, in file order: identity, links, where each content lies in
 * the file (found from the previous content's end, checked verbatim, else kept inline), hashes
 * and, for texts not in `known`, retrieval keys. Positions in `dir`/`body` count from 0.
 */
export class EntryDeriver {
  readonly dir: DirColumns = { id: [], status: [], flags: [], sup: [], by: [], ref: [] };
  readonly body: BodyColumns = { title: [], line: [], at: [], len: [], inline: {} };
  /** Per entry (`HASH_BYTES` each), its reuse code and where its keys start: sized to `n`, grown past it. */
  hashes: Uint8Array;
  reuse: Uint8Array;
  readonly vocab: string[] = [];
  offsets: Uint32Array;
  /** The keys' local term numbers, entry after entry (`offsets` says where each entry's start); `keys` used. */
  private idx = new Uint32Array(1024);
  private keys = 0;
  private readonly local = new Map<string, number>();
  private hv: Buffer;
  private d = 0;

  constructor(
    private readonly text: string,
    private readonly ascii: boolean,
    /** False: contents are not mapped to byte ranges (the file is not valid UTF-8). */
    private readonly ranges: boolean,
    /** How many entries there are (or a guess: the columns grow past it, see `fit`). */
    n: number,
    private readonly known: KnownTexts | null,
    readonly cursor: Cursor = { chars: 0, byteCursor: 0, charAtByteCursor: 0 },
  ) {
    this.hashes = new Uint8Array(n * HASH_BYTES);
    this.hv = Buffer.from(this.hashes.buffer, this.hashes.byteOffset, this.hashes.byteLength);
    this.reuse = new Uint8Array(n);
    this.offsets = new Uint32Array(n + 1);
  }

  /** Entries added so far. */
  get count(): number {
    return this.d;
  }

  /** Grows the typed columns to hold `n` entries. */
  private grow(n: number): void {
    const hashes = new Uint8Array(n * HASH_BYTES);
    hashes.set(this.hashes);
    const reuse = new Uint8Array(n);
    reuse.set(this.reuse);
    const offsets = new Uint32Array(n + 1);
    offsets.set(this.offsets);
    this.hashes = hashes;
    this.hv = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
    this.reuse = reuse;
    this.offsets = offsets;
  }

  /** Cuts the typed columns to the entries added (after a guess that was too high). */
  fit(): void {
    const n = this.d;
    if (this.reuse.length === n) return;
    this.hashes = this.hashes.slice(0, n * HASH_BYTES);
    this.hv = Buffer.from(this.hashes.buffer, this.hashes.byteOffset, this.hashes.byteLength);
    this.reuse = this.reuse.slice(0, n);
    this.offsets = this.offsets.slice(0, n + 1);
  }

  add(e: KnowledgeEntry): void {
    if (this.d >= this.reuse.length) this.grow(Math.max(16, this.reuse.length * 2));
    const { dir, body, hv, text, cursor } = this;
    const d = this.d++;
    const title = e.title ?? '';
    dir.id.push(e.id);
    dir.status.push(e.status);
    const flags = isIndexed(e) ? ACTIVE : isRetired(e) ? RETIRED : 0;
    dir.flags.push(flags);
    dir.sup.push(e.supersedes?.length ? e.supersedes : 0);
    dir.by.push(e.supersededBy ?? 0);
    dir.ref.push(e.ref ?? 0);
    body.title.push(title);
    body.line.push(e.line ?? 0);
    // The content as a byte range of the file, when it is one.
    const content = e.content;
    const at = this.ranges ? locate(text, content, cursor.chars) : -1;
    if (at >= 0) {
      let byteAt: number;
      if (this.ascii) byteAt = at;
      else {
        cursor.byteCursor += Buffer.byteLength(text.slice(cursor.charAtByteCursor, at));
        cursor.charAtByteCursor = at;
        byteAt = cursor.byteCursor;
      }
      body.at.push(byteAt);
      body.len.push(this.ascii ? content.length : Buffer.byteLength(content));
      cursor.chars = at + content.length;
    } else {
      body.at.push(-1);
      body.len.push(0);
      body.inline[d] = content;
    }
    const o = d * HASH_BYTES;
    hv.write(e.contentHash.slice(0, 16), o + H_CHECK, 'hex');
    const key = textKey(content, title);
    hv.write(key, o + H_TEXT, 'hex');
    const by = e.supersededBy ?? '';
    const knownAs = this.known?.get(key);
    if (knownAs !== undefined) {
      this.reuse[d] = knownAs === `${e.status}\u0000${by}` ? 2 : 1;
    } else {
      if (flags) hv.writeUIntBE(keyHash(`${e.store}\u0000${exactKey(content)}`), o + H_EXACT, 6);
      const titleKey = flags === ACTIVE ? matchNormalize(title) : '';
      if (titleKey) hv.writeUIntBE(keyHash(titleKey), o + H_TITLE, 6);
      if (flags === ACTIVE) {
        for (const k of docKeys(e)) {
          let t = this.local.get(k);
          if (t === undefined) {
            t = this.vocab.length;
            this.vocab.push(k);
            this.local.set(k, t);
          }
          if (this.keys === this.idx.length) {
            const grown = new Uint32Array(this.idx.length * 2);
            grown.set(this.idx);
            this.idx = grown;
          }
          this.idx[this.keys++] = t;
        }
      }
    }
    if (this.reuse[d] !== 2) {
      const eh = entryHash({
        status: e.status,
        contentHash: e.contentHash,
        title: e.title,
        file: e.file,
        supersededBy: e.supersededBy ?? null,
      });
      hv.write(eh, o + H_ENTRY, 'hex');
    }
    this.offsets[d + 1] = this.keys;
  }

  termIdx(): Uint32Array {
    return this.idx.slice(0, this.keys);
  }
}

/** Where `content` is in `text` at or after `from` (within the window), -1 when it is not. */
export function locate(text: string, content: string, from: number): number {
  if (!content) return from;
  const at = text.slice(from, from + content.length + WINDOW).indexOf(content);
  return at >= 0 ? at + from : -1;
}

/**
 * Parses one file and derives its rows: identity, links, where each content lies in the file
 * (checked verbatim, else kept inline), hashes and, for texts not in `known`, retrieval keys.
 */
export function deriveFile(path: string, buf: Uint8Array, sha: string, known: KnownTexts | null): DerivedFile {
  const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  // The entries `loadCorpus` reads, with the file's spec rows: the next single-entry command
  // (`spec add`, `load --id`) then finds the spec section current without parsing the corpus.
  // Each entry is derived as it is parsed and let go: a large file's entries are never all held.
  let deriver: EntryDeriver | null = null;
  let text = '';
  let ascii = true;
  const own: EntryIdentity[] = [];
  const parsed = streamCorpusFileRows(path, bytes, sha, (decoded, utf8) => {
    // The text that parse decoded (for a valid UTF-8 spec file), not a second copy.
    text = utf8 && path.startsWith('specs/') ? decoded : bytes.toString('utf8');
    ascii = bytes.length === text.length;
    // A file that is not valid UTF-8 does not map back to byte ranges: its contents stay inline.
    const ranges = ascii || !text.includes('\uFFFD');
    const d = new EntryDeriver(text, ascii, ranges, entryGuess(text), known);
    deriver = d;
    return (e) => {
      d.add(e);
      own.push({ id: e.id, hasSid: e.hasSid, legacy: e.legacy });
    };
  });
  const spec = parsed.spec;
  const d = deriver as unknown as EntryDeriver;
  d.fit();
  const rows = {
    path,
    entries: own,
    spots: parsed.spots,
    issues: parsed.issues,
    defaultCategory: parsed.defaultCategory,
  };
  const resume = ascii || !text.includes('\uFFFD') ? resumeInfo(bytes, text, ascii, rows) : null;
  return {
    path,
    sha256: sha,
    entries: d.count,
    dir: JSON.stringify(d.dir),
    body: JSON.stringify(d.body),
    flags: Uint8Array.from(d.dir.flags),
    hashes: d.hashes,
    reuse: d.reuse,
    vocab: d.vocab,
    offsets: d.offsets,
    termIdx: d.termIdx(),
    spec,
    resume,
  };
}

/** How many entries a file's text likely holds (its `<spec-entry` tags; 1 for a knowhow file). */
function entryGuess(text: string): number {
  let n = 0;
  for (let at = text.indexOf('<spec-entry'); at !== -1; at = text.indexOf('<spec-entry', at + 11)) n++;
  return Math.max(1, n);
}

/** What telling an entry with its own id and a resumable one apart needs of it. */
export type EntryIdentity = Pick<KnowledgeEntry, 'id' | 'hasSid' | 'legacy'>;

/** A derived id before any twin suffix: `D-` and 16 hex. */
const DERIVED_ID_LENGTH = 18;

/** An entry with its own id: a sid, or a derived id without a twin suffix (no other entry of its file has it). */
export function ownId(e: EntryIdentity): boolean {
  return e.hasSid || e.id.length === DERIVED_ID_LENGTH;
}

/** An entry a scan may resume after: a clean `<spec-entry>` block (see `EntrySpot`). */
export function resumable(e: EntryIdentity, spot: EntrySpot): boolean {
  return spot.end !== null && !e.legacy;
}

/**
 * The chunks of a spec file's rows (see `ResumeInfo`), each of about `CHUNK` entries and ending
 * after a resumable one, whose bytes start at `base` (`rows.spots` offsets are characters of
 * `text`); entries after the last resumable one are in no chunk. Null when an entry has no id of
 * its own.
 */
export function resumeChunks(
  bytes: Buffer,
  text: string,
  ascii: boolean,
  rows: { entries: readonly EntryIdentity[]; spots: readonly EntrySpot[] },
  base: { entries: number; byte: number; char: number; line: number },
): ResumeInfo['chunks'] | null {
  const { entries, spots } = rows;
  const chunks: ResumeInfo['chunks'] = [];
  let byte = base.byte;
  let char = base.char;
  let line = base.line;
  let count = 0;
  for (let i = 0; i < entries.length; i++) {
    if (!ownId(entries[i])) return null;
    count++;
    if ((count < CHUNK && i < entries.length - 1) || !resumable(entries[i], spots[i])) continue;
    const end = spots[i].end as number;
    const endByte = ascii ? end : byte + Buffer.byteLength(text.slice(char, end));
    for (let nl = text.indexOf('\n', char); nl !== -1 && nl < end; nl = text.indexOf('\n', nl + 1)) line++;
    chunks.push([base.entries + i + 1, endByte, end, line, chunkHash(bytes.subarray(byte, endByte))]);
    byte = endByte;
    char = end;
    count = 0;
  }
  return chunks;
}

/** What the resume chunks of a file need of its parse. */
type ResumeRows = Pick<ParsedFileRows, 'path' | 'spots' | 'issues' | 'defaultCategory'> & {
  entries: readonly EntryIdentity[];
};

function resumeInfo(bytes: Buffer, text: string, ascii: boolean, rows: ResumeRows): ResumeInfo | null {
  if (!rows.path.startsWith('specs/') || rows.entries.length === 0) return null;
  // An unclosed frontmatter would close at a `---` line written anywhere later: such a file is derived whole.
  if (rows.issues.some((i) => i.code === 'FRONTMATTER_UNCLOSED')) return null;
  const chunks: ResumeInfo['chunks'] = [];
  let start = { entries: 0, byte: 0, char: 0, line: 1 };
  // (An empty head would match any new start of the file, a frontmatter written before the first block included.)
  if (resumable(rows.entries[0], rows.spots[0]) && rows.spots[0].offset > 0) {
    // The file's head (frontmatter, text before the first block) is a chunk of its own: an edit
    // of the first entries keeps it.
    const open = rows.spots[0].offset;
    start = {
      entries: 0,
      byte: ascii ? open : Buffer.byteLength(text.slice(0, open)),
      char: open,
      line: rows.spots[0].line ?? 1,
    };
    chunks.push([0, start.byte, open, start.line, chunkHash(bytes.subarray(0, start.byte))]);
  }
  const rest = resumeChunks(bytes, text, ascii, rows, start);
  if (!rest) return null;
  for (const c of rest) chunks.push(c);
  if (chunks.length === 0) return null;
  const end = chunks[chunks.length - 1][1];
  return { size: bytes.length, category: rows.defaultCategory, chunks, trail: chunkHash(bytes.subarray(end)) };
}

/** The sha256 of a file's bytes (what `fileStates` recorded). */
export function bytesHash(buf: Uint8Array): string {
  return sha256(buf);
}
