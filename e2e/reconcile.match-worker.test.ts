import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { closeStores, openStore } from '@maestro/store';
import { copyDir, runMaestro, tmpDir } from '@maestro/test-utils';
import { afterAll, afterEach, expect, test } from 'vitest';

// A cold build of the `match` section derives files on a worker thread when the change is large
// (MAESTRO_MATCH_WORKER=1 forces it on a small project): the rows, receipts and answers are those of
// a build on the calling thread alone.

const NOW = '2026-12-01T00:00:00.000Z';
const SET = resolve(import.meta.dirname, '../bench/reconcile-sets/harbor');
const SESSION = '20261201-harbor';
const RECEIPT = '.workflow/sessions/20261201-harbor/runs/20261201-001-harbor/knowledge-reconciliation.json';

let template: string | null = null;
afterEach(() => closeStores());
afterAll(() => {
  if (template) rmSync(template, { recursive: true, force: true });
});

function project(): string {
  if (!template) {
    template = mkdtempSync(join(tmpdir(), 'maestro-match-worker-tpl-'));
    execFileSync(process.execPath, [join(SET, 'stage.mjs'), template], { stdio: 'ignore' });
  }
  const root = tmpDir('maestro-match-worker-');
  copyDir(template, root);
  return root;
}

function section(root: string) {
  closeStores();
  const { db } = openStore(workflowLayout(root), { readOnly: true });
  const files = db
    .prepare('SELECT path, sha256, entries, dir, body, hashes, terms FROM match_files ORDER BY path')
    .all();
  const terms = db.prepare('SELECT term_id, term, df, docs FROM match_terms ORDER BY term_id').all();
  const meta = db.prepare("SELECT * FROM match_meta WHERE name != 'generation'").all();
  closeStores();
  return { files, terms, meta };
}

test('files derived on a worker give the rows and receipts of the calling thread', () => {
  const run = (worker: '0' | '1') => {
    const root = project();
    const r = runMaestro(['knowledge', 'review', SESSION, '--refresh', '--json', '--workflow-root', root], {
      env: { MAESTRO_NOW: NOW, MAESTRO_MATCH_WORKER: worker },
    });
    expect(r.code, r.stderr).toBe(0);
    return { stdout: r.stdout, receipt: readFileSync(join(root, RECEIPT), 'utf8'), section: section(root) };
  };
  const here = run('0');
  const away = run('1');
  expect(here.section.files.length).toBeGreaterThan(2);
  expect(away.stdout).toBe(here.stdout);
  expect(away.receipt).toBe(here.receipt);
  expect(away.section).toEqual(here.section);
}, 120_000);
