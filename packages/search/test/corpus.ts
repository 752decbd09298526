import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowLayout } from '@maestro/fs';
import type { Corpus, CorpusFileInfo, KnowledgeEntry } from '@maestro/spec';
import { tmpProject } from '@maestro/test-utils';
import { entry } from './entries.js';

/**
 * A stand-in for `loadCorpus` that keeps the IO tests independent of the markdown parser: every
 * `specs/*.md` and `knowhow/*.md` file holds a JSON array of `[id, overrides]` pairs. It reads and
 * stats real files exactly like the real loader, and counts its calls.
 */
export function jsonLoader() {
  const loader = Object.assign(
    (layout: WorkflowLayout): Corpus => {
      loader.calls++;
      const entries: KnowledgeEntry[] = [];
      const files: CorpusFileInfo[] = [];
      for (const dir of ['specs', 'knowhow']) {
        let names: string[] = [];
        try {
          names = readdirSync(join(layout.workflow, dir), { withFileTypes: true })
            .filter((d) => d.isFile() && d.name.endsWith('.md'))
            .map((d) => d.name)
            .sort();
        } catch {
          // missing directory
        }
        for (const name of names) {
          const abs = join(layout.workflow, dir, name);
          const file = `${dir}/${name}`;
          const pairs = JSON.parse(readFileSync(abs, 'utf8')) as [string, Partial<KnowledgeEntry>][];
          const st = statSync(abs);
          files.push({ path: file, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
          for (const [id, over] of pairs) entries.push(entry(id, { file, ...over }));
        }
      }
      return { entries, byId: new Map(entries.map((e) => [e.id, e])), issues: [], files };
    },
    { calls: 0 },
  );
  return loader;
}

/** Writes a JSON-corpus file and backdates it past the racy window (unless `mtime` is given). */
export function writeCorpusFile(
  root: string,
  rel: string,
  pairs: [string, Partial<KnowledgeEntry>][],
  mtime?: Date,
): void {
  const abs = join(root, '.workflow', rel);
  writeFileSync(abs, JSON.stringify(pairs));
  const t = mtime ?? new Date(Date.now() - 60_000 + Math.floor(Math.random() * 1000));
  utimesSync(abs, t, t);
}

/** Backdates the corpus directories too, so only what a test changes looks new. */
export function backdateDirs(root: string): void {
  const t = new Date(Date.now() - 60_000);
  for (const d of ['specs', 'knowhow']) utimesSync(join(root, '.workflow', d), t, t);
}

/** A project with two spec files and two knowhow files. */
export function jsonProject(): string {
  const root = tmpProject({ '.workflow/specs/.keep': '', '.workflow/knowhow/.keep': '' });
  writeCorpusFile(root, 'specs/coding.md', [
    ['S-1', { title: 'Retry with backoff', content: 'Retry failed HTTP calls with exponential backoff.' }],
    ['S-2', { title: 'Close handles', content: 'Always close file handles in finally blocks.' }],
  ]);
  writeCorpusFile(root, 'specs/arch.md', [
    [
      'S-3',
      { title: 'Queue boundaries', content: 'Services talk through the queue, never the database.', category: 'arch' },
    ],
    ['S-old', { title: 'Retry forever', content: 'Retry until it works.', status: 'deprecated' }],
  ]);
  writeCorpusFile(root, 'knowhow/TIP-1.md', [
    ['knowhow-tip-1', { title: 'Backoff jitter', content: 'Add jitter to backoff to avoid thundering herds.' }],
  ]);
  writeCorpusFile(root, 'knowhow/TIP-2.md', [
    ['knowhow-tip-2', { title: '缓存失效', content: '缓存失效时使用退避重试' }],
  ]);
  backdateDirs(root);
  return root;
}
