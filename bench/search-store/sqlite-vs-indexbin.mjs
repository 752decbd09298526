// Measures the two ways of persisting the search projection at scale (issue 17, section `search`):
// index.bin format 2 (this package) against the same postings in SQLite (@maestro/store's engine),
// in two layouts: one row per term (what a query reads), and one row per (term, file) (what a
// per-file incremental update would need). Reports build time, file size and the cost of one
// warm query's reads (its terms' postings and 40 documents' rows).
//
//   node bench/search-store/sqlite-vs-indexbin.mjs <project root with a built .workflow/.index/search>
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

// `--reads sqlite <db> <layout>` / `--reads bin <index.bin>`: one warm query's reads in a fresh process.
if (process.argv[2] === '--reads') {
  const t0 = { wall: performance.now(), cpu: process.cpuUsage() };
  const here = new URL('../../packages/', import.meta.url).pathname;
  const join2 = (a, b) => `${a}${b}`;
  let bytes = 0;
  if (process.argv[3] === 'bin') {
    const { openIndexFile } = await import(join2(here, 'search/dist/codec.js'));
    const index = openIndexFile(process.argv[4]).index;
    index.prepare(['retry', 'backoff'].map((w) => index.termRank(w)));
    for (let d = 0; d < 40; d++) {
      index.doc(d * 997);
      index.body(d * 997);
    }
  } else {
    const Database = createRequire(join2(here, 'store/package.json'))('better-sqlite3');
    const ro = new Database(process.argv[4], { readonly: true });
    const get = ro.prepare(
      process.argv[5] === 'per-term'
        ? 'SELECT df, data FROM search_postings WHERE term = ?'
        : 'SELECT df, data FROM search_postings WHERE term = ? ORDER BY file',
    );
    for (const term of ['retry', 'backoff']) for (const row of get.all(term)) bytes += row.data.length;
    // what scoring needs of every document besides the postings (lengths, flags, dates)
    bytes += ro.prepare("SELECT data FROM search_meta WHERE key = 'docs'").get().data.length;
    const docRow = ro.prepare('SELECT record, body FROM search_docs WHERE doc = ?');
    for (let d = 0; d < 40; d++) {
      const row = docRow.get(d * 997);
      JSON.parse(row.record);
      inflateRawSync(row.body);
    }
    ro.close();
  }
  const c = process.cpuUsage(t0.cpu);
  console.log(
    `${(performance.now() - t0.wall).toFixed(0)} ms wall / ${((c.user + c.system) / 1000).toFixed(0)} ms CPU (${(bytes / 1e3).toFixed(0)} kB read)`,
  );
  process.exit(0);
}
const self = fileURLToPath(import.meta.url);
const root = process.argv[2];
const here = new URL('../../packages/', import.meta.url).pathname;
const { openIndexFile } = await import(join(here, 'search/dist/codec.js'));
const { readManifest } = await import(join(here, 'search/dist/persist.js'));
const Database = createRequire(join(here, 'store/package.json'))('better-sqlite3');

// Wall and CPU time since `t` (a shared 2-core machine: CPU time is the steadier figure).
const now = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
const ms = (t) => {
  const c = process.cpuUsage(t.cpu);
  return `${(performance.now() - t.wall).toFixed(0)} ms wall / ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`;
};
const dir = join(root, '.workflow/.index/search');
const manifest = readManifest(dir).manifest;
let t = now();
const { index } = openIndexFile(join(dir, 'index.bin'));
index.prepare(index.terms.map((_, i) => i));
console.log(
  `index.bin: ${(statSync(join(dir, 'index.bin')).size / 1e6).toFixed(1)} MB, ${index.size} docs, ${index.terms.length} terms, ${index.termStart[index.terms.length]} postings (decoded all in ${ms(t)})`,
);

function varints(docs, tfs) {
  const out = [];
  let prev = 0;
  for (let i = 0; i < docs.length; i++) {
    let x = docs[i] - prev;
    prev = docs[i];
    while (x >= 0x80) {
      out.push((x & 0x7f) | 0x80);
      x >>>= 7;
    }
    out.push(x);
    const q = i * 4;
    out.push((tfs[q] ? 1 : 0) | (tfs[q + 1] ? 2 : 0) | (tfs[q + 2] ? 4 : 0) | (tfs[q + 3] ? 8 : 0));
    for (let f = 0; f < 4; f++) if (tfs[q + f]) out.push(tfs[q + f]);
  }
  return Buffer.from(out);
}
const fileOf = new Uint32Array(index.size);
manifest.files.forEach((f, i) => {
  fileOf.fill(i, f.first, f.first + f.count);
});

for (const layout of ['per-term', 'per-term-file']) {
  const tmp = mkdtempSync(join(tmpdir(), 'search-sqlite-'));
  const db = new Database(join(tmp, 'maestro.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    layout === 'per-term'
      ? 'CREATE TABLE search_postings (term TEXT PRIMARY KEY, df INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID'
      : 'CREATE TABLE search_postings (term TEXT NOT NULL, file INTEGER NOT NULL, df INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (term, file)) WITHOUT ROWID',
  );
  db.exec('CREATE TABLE search_docs (doc INTEGER PRIMARY KEY, record TEXT NOT NULL, body BLOB NOT NULL)');
  db.exec('CREATE TABLE search_meta (key TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID');
  t = now();
  let rows = 0;
  db.transaction(() => {
    const put =
      layout === 'per-term'
        ? db.prepare('INSERT INTO search_postings VALUES (?, ?, ?)')
        : db.prepare('INSERT INTO search_postings VALUES (?, ?, ?, ?)');
    for (let r = 0; r < index.terms.length; r++) {
      const a = index.termStart[r];
      const b = index.termStart[r + 1];
      const docs = index.postDoc.subarray(a, b);
      const tfs = index.postTf.subarray(a * 4, b * 4);
      if (layout === 'per-term') {
        put.run(index.terms[r], b - a, varints(docs, tfs));
        rows++;
        continue;
      }
      let s = 0;
      while (s < docs.length) {
        let e = s;
        while (e < docs.length && fileOf[docs[e]] === fileOf[docs[s]]) e++;
        put.run(index.terms[r], fileOf[docs[s]], e - s, varints(docs.subarray(s, e), tfs.subarray(s * 4, e * 4)));
        rows++;
        s = e;
      }
    }
    const perDoc = Buffer.concat([
      Buffer.from(index.lengths.buffer, index.lengths.byteOffset, index.lengths.byteLength),
      Buffer.from(index.flags),
      Buffer.from(index.dateDays.buffer, index.dateDays.byteOffset, index.dateDays.byteLength),
    ]);
    db.prepare("INSERT INTO search_meta VALUES ('docs', ?)").run(perDoc);
    const doc = db.prepare('INSERT INTO search_docs VALUES (?, ?, ?)');
    for (let d = 0; d < index.size; d++) {
      doc.run(d, JSON.stringify(index.doc(d)), deflateRawSync(Buffer.from(index.body(d)), { level: 1 }));
    }
  })();
  const build = ms(t);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const size = statSync(join(tmp, 'maestro.db')).size;
  db.close();
  // One warm query, in a fresh process: two terms' postings, the per-document table, 40 documents' rows.
  const reads = execFileSync(process.execPath, [self, '--reads', 'sqlite', join(tmp, 'maestro.db'), layout])
    .toString()
    .trim();
  console.log(
    `sqlite ${layout}: ${rows} posting rows, build ${build}, ${(size / 1e6).toFixed(1)} MB, one query's reads ${reads}`,
  );
  rmSync(tmp, { recursive: true, force: true });
}
// The same reads from index.bin, in a fresh process.
const reads = execFileSync(process.execPath, [self, '--reads', 'bin', join(dir, 'index.bin')])
  .toString()
  .trim();
console.log(`index.bin: one query's reads ${reads}`);
