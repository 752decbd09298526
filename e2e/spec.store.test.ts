import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_BIN, readTree, runMaestro, tmpProject } from '@maestro/test-utils';
import { describe, expect, onTestFinished, test } from 'vitest';

// Single-entry commands answer from the derived-state store's rows (`spec_entries`), checking the
// files they touch by hash: these runs of the built binary check that the answer is the one the
// text files give, whatever happened to the store or behind its back.

const GEN = pathToFileURL(resolve(import.meta.dirname, '../bench/lib/gen-corpus.mjs')).href;
const FILE = '.workflow/specs/architecture-constraints.md';

async function project(): Promise<string> {
  const { generateCorpus } = (await import(GEN)) as {
    generateCorpus: (root: string, o: { entries: number; seed?: number }) => unknown;
  };
  const root = tmpProject();
  generateCorpus(root, { entries: 800, seed: 11 });
  // outside the racy window, so the store trusts unchanged files by stat (the fast path)
  const past = new Date(Date.now() - 60_000);
  for (const dir of ['specs', 'knowhow']) {
    for (const n of readdirSync(join(root, '.workflow', dir))) utimesSync(join(root, '.workflow', dir, n), past, past);
  }
  return root;
}

/** A sid of an entry of the big file, and its content. */
function someEntry(root: string, nth: number): { sid: string; content: string } {
  const text = readFileSync(join(root, FILE), 'utf8');
  const sids = [...text.matchAll(/<spec-entry ([^>]*)>\s*### [^\n]*\n\n([^\n]+)/g)].filter(
    (m) => /\bsid="S-/.test(m[1]) && !m[1].includes('status=') && !m[1].includes('supersed'),
  );
  const m = sids[nth];
  return { sid: /\bsid="(S-[^"]+)"/.exec(m[1])?.[1] as string, content: m[2] };
}

function json(root: string, args: string[]) {
  const r = runMaestro([...args, '--json'], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** `load --id`, `spec show` and `spec history` of a sid, as --json. */
function answers(root: string, sid: string) {
  return {
    load: json(root, ['load', '--id', sid]),
    show: json(root, ['spec', 'show', sid]),
    history: json(root, ['spec', 'history', sid]),
  };
}

describe('single-entry commands through the store', () => {
  test('answer as the text files do: warm, after .index is removed, after an edit behind the store, with a damaged db', {
    timeout: 240_000,
  }, async () => {
    const root = await project();
    const { sid, content } = someEntry(root, 40);
    const cold = answers(root, sid);
    expect(cold.load.entries[0].id).toBe(sid);
    expect(cold.load.entries[0].content).toContain(content);
    expect(cold.show.entry.id).toBe(sid);
    expect(existsSync(join(root, '.workflow/.index/maestro.db'))).toBe(true);
    expect(answers(root, sid)).toEqual(cold);
    rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
    expect(answers(root, sid)).toEqual(cold);

    // the same number of bytes, the old mtime put back: only the ctime and the bytes tell
    const path = join(root, FILE);
    const before = statSync(path);
    const swapped = content.split(' ').reverse().join(' ');
    expect(swapped.length).toBe(content.length);
    writeFileSync(path, readFileSync(path, 'utf8').replace(content, swapped));
    utimesSync(path, before.atime, before.mtime);
    expect(statSync(path).size).toBe(before.size);
    const edited = answers(root, sid);
    expect(edited.load.entries[0].content).toContain(swapped);
    expect(edited.show.entry.content).toContain(swapped);
    rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
    expect(answers(root, sid)).toEqual(edited);

    // a damaged database file is moved aside and rebuilt; the answer does not change
    writeFileSync(join(root, '.workflow/.index/maestro.db'), 'this is not a database'.repeat(300));
    expect(answers(root, sid)).toEqual(edited);
    expect(readdirSync(join(root, '.workflow/.index')).some((n) => n.startsWith('maestro.db.damaged-'))).toBe(true);
  });

  test('spec add: duplicate titles and new sids checked against the rows, also after an edit behind the store', {
    timeout: 240_000,
  }, async () => {
    const root = await project();
    const { sid } = someEntry(root, 3);
    const title: string = json(root, ['spec', 'show', sid]).entry.title;
    const dup = json(root, ['spec', 'add', 'arch', title.toUpperCase(), 'again']);
    expect(dup.duplicate).toBe(true);
    expect(dup.sid).toBe(sid);

    // retitle that entry behind the store's back (same length, old mtime): no longer a duplicate
    const path = join(root, FILE);
    const before = statSync(path);
    const text = readFileSync(path, 'utf8');
    const retitled = `${title.slice(0, -1)}Z`;
    writeFileSync(
      path,
      text.split(`### ${title}\n`).join(`### ${retitled}\n`).split(`title="${title}"`).join(`title="${retitled}"`),
    );
    utimesSync(path, before.atime, before.mtime);
    const added = json(root, ['spec', 'add', 'arch', title, 'now new']);
    expect(added.duplicate).toBe(false);
    expect(added.sid).not.toBe(sid);
    const shown = json(root, ['spec', 'show', added.sid]).entry;
    expect(shown.title).toBe(title);
    expect(shown.content).toBe('now new');
    expect(json(root, ['load', '--id', sid]).entries[0].title).toBe(retitled);
    const dupAgain = json(root, ['spec', 'add', 'arch', title, 'third']);
    expect(dupAgain).toMatchObject({ duplicate: true, sid: added.sid });
  });
});

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
const asRoot = process.getuid?.() === 0;

function chmodTree(dir: string, dirMode: number, fileMode: number): void {
  chmodSync(dir, dirMode);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) chmodTree(p, dirMode, fileMode);
    else chmodSync(p, fileMode);
  }
}

function readOnlyRun(cwd: string, args: string[]) {
  const env = { ...process.env, NO_COLOR: '1', MAESTRO_CHECK_OUTPUT: '1', HOME: cwd };
  const cmd = asRoot
    ? [SETPRIV as string, '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI_BIN, ...args]
    : [process.execPath, CLI_BIN, ...args];
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// As root, file modes do not stop writes, so the binary runs as `nobody` (setpriv); without setpriv
// there is no way to make the checkout read-only for it, and the test is skipped.
describe.runIf(!asRoot || SETPRIV !== undefined)('a read-only checkout', () => {
  test('load --id and spec show answer (store in memory), and nothing is written, .index included', {
    timeout: 240_000,
  }, async () => {
    const root = await project();
    const { sid } = someEntry(root, 7);
    const want = answers(root, sid);
    // an edit the stored rows do not know yet
    const path = join(root, FILE);
    writeFileSync(path, readFileSync(path, 'utf8').replace(want.show.entry.content, 'rewritten while read-only'));
    chmodTree(root, 0o555, 0o444);
    onTestFinished(() => chmodTree(root, 0o755, 0o644));
    const before = readTree(root, () => false);
    const load = readOnlyRun(root, ['load', '--id', sid, '--json']);
    expect(load.code, load.stderr).toBe(0);
    expect(JSON.parse(load.stdout).entries[0].content).toBe('rewritten while read-only');
    const show = readOnlyRun(root, ['spec', 'show', sid, '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout).entry.content).toBe('rewritten while read-only');
    expect(readTree(root, () => false)).toEqual(before);
  });
});
