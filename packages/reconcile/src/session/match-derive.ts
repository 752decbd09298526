import { sha256 } from '@maestro/core';
import { type EncodedSpecRow, encodeSpecRow, parseCorpusFileRows } from '@maestro/spec';
import { docKeys, isIndexed, isRetired } from '../matcher/corpus-index.js';
import { exactKey, matchNormalize } from '../matcher/text.js';
import { entryHash } from '../receipt/revalidate.js';
import {
  ACTIVE,
  type BodyColumns,
  type DirColumns,
  H_CHECK,
  H_ENTRY,
  H_EXACT,
  H_TEXT,
  H_TITLE,
  HASH_BYTES,
  keyHash,
  RETIRED,
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
  dir: DirColumns;
  body: BodyColumns;
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
}

/** How far past the previous entry's content the next content is looked for. */
const WINDOW = 1 << 16;

/**
 * Parses one file and derives its rows: identity, links, where each content lies in the file
 * (checked verbatim, else kept inline), hashes and, for texts not in `known`, retrieval keys.
 */
export function deriveFile(path: string, buf: Uint8Array, sha: string, known: KnownTexts | null): DerivedFile {
  const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  // The entries `loadCorpus` reads, with the file's spec rows: the next single-entry command
  // (`spec add`, `load --id`) then finds the spec section current without parsing the corpus.
  const parsed = parseCorpusFileRows(path, bytes, sha);
  // The text that parse decoded (kept for a valid UTF-8 spec file), not a second copy.
  const text = parsed.rows.text ?? bytes.toString('utf8');
  const entries = parsed.entries;
  const spec = encodeSpecRow(parsed.rows);
  const n = entries.length;
  const dir: DirColumns = { id: [], status: [], flags: [], sup: [], by: [], ref: [] };
  const body: BodyColumns = { title: [], line: [], at: [], len: [], inline: {} };
  const hashes = new Uint8Array(n * HASH_BYTES);
  const hv = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
  const reuse = new Uint8Array(n);
  const vocab: string[] = [];
  const local = new Map<string, number>();
  const offsets = new Uint32Array(n + 1);
  const idx: number[] = [];
  const ascii = bytes.length === text.length;
  // A file that is not valid UTF-8 does not map back to byte ranges: its contents stay inline.
  const ranges = ascii || !text.includes('\uFFFD');
  let cursor = 0;
  let byteCursor = 0;
  let charAtByteCursor = 0;
  for (let d = 0; d < n; d++) {
    const e = entries[d];
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
    let at = -1;
    if (ranges) {
      at = content ? text.slice(cursor, cursor + content.length + WINDOW).indexOf(content) : 0;
      if (at >= 0) at += cursor;
    }
    if (at >= 0) {
      let byteAt: number;
      if (ascii) byteAt = at;
      else {
        byteCursor += Buffer.byteLength(text.slice(charAtByteCursor, at));
        charAtByteCursor = at;
        byteAt = byteCursor;
      }
      body.at.push(byteAt);
      body.len.push(ascii ? content.length : Buffer.byteLength(content));
      cursor = at + content.length;
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
    const knownAs = known?.get(key);
    if (knownAs !== undefined) {
      reuse[d] = knownAs === `${e.status}\u0000${by}` ? 2 : 1;
    } else {
      if (flags) hv.writeUIntBE(keyHash(`${e.store}\u0000${exactKey(content)}`), o + H_EXACT, 6);
      const titleKey = flags === ACTIVE ? matchNormalize(title) : '';
      if (titleKey) hv.writeUIntBE(keyHash(titleKey), o + H_TITLE, 6);
      if (flags === ACTIVE) {
        for (const k of docKeys(e)) {
          let t = local.get(k);
          if (t === undefined) {
            t = vocab.length;
            vocab.push(k);
            local.set(k, t);
          }
          idx.push(t);
        }
      }
    }
    if (reuse[d] !== 2) {
      const eh = entryHash({
        status: e.status,
        contentHash: e.contentHash,
        title: e.title,
        file: e.file,
        supersededBy: e.supersededBy ?? null,
      });
      hv.write(eh, o + H_ENTRY, 'hex');
    }
    offsets[d + 1] = idx.length;
  }
  return {
    path,
    sha256: sha,
    entries: n,
    dir,
    body,
    hashes,
    reuse,
    vocab,
    offsets,
    termIdx: Uint32Array.from(idx),
    spec,
  };
}

/** The sha256 of a file's bytes (what `fileStates` recorded). */
export function bytesHash(buf: Uint8Array): string {
  return sha256(buf);
}
