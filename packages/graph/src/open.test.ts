import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { FLOW, maestroFlowTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { GRAPH_FILE, graphDir, KnowledgeGraph, openGraph, readStoredGraph } from './index.js';

/** Pushes every source's mtime into the past so the racy-timestamp guard trusts the stored stats. */
function settle(root: string, paths: string[]) {
  const past = new Date(Date.now() - 60_000);
  for (const p of paths) utimesSync(join(root, '.workflow', p), past, past);
}

/** A project whose graph is built, its sources settled in the past and their stats recorded. */
async function settledProject() {
  const root = tmpProject(maestroFlowTree());
  const layout = workflowLayout(root);
  const built = await openGraph(layout);
  settle(
    root,
    built.files.map((f) => f.path),
  );
  await openGraph(layout);
  return { root, layout };
}

const SPEC = 'specs/coding-conventions.md';
const AUTH = 'sessions/20260415-auth/runs/20260415-001-plan/knowledge-delta.json';

describe('openGraph: a rebuildable projection updated per changed file', () => {
  it('builds from every source, then reuses it with one stat per file', async () => {
    const root = tmpProject(maestroFlowTree());
    const layout = workflowLayout(root);
    const first = await openGraph(layout);
    expect(first.status).toBe('built');
    expect(first.persisted).toBe(true);
    const paths = first.files.map((f) => f.path);
    expect(paths).toContain(SPEC);
    expect(paths).toContain('knowhow/TIP-20260427-retry-jitter.md');
    expect(paths).toContain(AUTH);
    expect(paths).toContain('sessions/20260402-utc/runs/20260402-001-plan/knowledge-reconciliation.json');
    settle(root, paths);
    await openGraph(layout); // records the settled stats
    const again = await openGraph(layout);
    expect(again).toMatchObject({ status: 'fresh', reextracted: [] });
  });

  it('a one-file change re-extracts only that file; other files keep their records', async () => {
    const root = tmpProject(maestroFlowTree());
    const layout = workflowLayout(root);
    const built = await openGraph(layout);
    settle(
      root,
      built.files.map((f) => f.path),
    );
    const before = (await openGraph(layout)).files;
    const ledger = join(root, '.workflow', AUTH);
    writeFileSync(ledger, readFileSync(ledger, 'utf8').replace('"signal": "cited"', '"signal": "validated"'));
    const after = await openGraph(layout);
    expect(after.status).toBe('updated');
    expect(after.reextracted).toEqual([AUTH]);
    for (const f of after.files) {
      const old = before.find((b) => b.path === f.path)!;
      if (f.path === AUTH) expect(f.edges).not.toEqual(old.edges);
      else expect(f).toEqual(old);
    }
    const kinds = after.files.find((f) => f.path === AUTH)!.edges.map((e) => e.kind);
    expect(kinds).toContain('validated');
    expect(kinds).not.toContain('cited');
    // The stored file is what the next process reads.
    const stored = readStoredGraph(layout);
    expect(stored.kind === 'ok' && stored.graph.files.find((f) => f.path === AUTH)!.edges.map((e) => e.kind)).toContain(
      'validated',
    );
  });

  it('an in-place edit that keeps the size and puts the mtime back is still re-extracted (its ctime moved)', async () => {
    const { root, layout } = await settledProject();
    expect(await openGraph(layout)).toMatchObject({ status: 'fresh', reextracted: [] });
    const ledger = join(root, '.workflow', AUTH);
    const { statSync } = await import('node:fs');
    const st = statSync(ledger);
    // "cited" and "moved" have the same length: same size, and the mtime is restored.
    writeFileSync(ledger, readFileSync(ledger, 'utf8').replace('"signal": "cited"', '"signal": "moved"'));
    utimesSync(ledger, st.atime, st.mtime);
    expect(statSync(ledger)).toMatchObject({ size: st.size, mtimeMs: st.mtimeMs });
    const after = await openGraph(layout);
    expect(after).toMatchObject({ status: 'updated', reextracted: [AUTH] });
  });

  it('same bytes with a new mtime are re-hashed, not re-extracted; removed files leave the graph', async () => {
    const { root, layout } = await settledProject();
    const touched = new Date(Date.now() - 30_000);
    utimesSync(join(root, '.workflow', SPEC), touched, touched);
    expect(await openGraph(layout)).toMatchObject({ status: 'fresh', reextracted: [] });
    const { rmSync } = await import('node:fs');
    rmSync(join(root, '.workflow/knowhow/TIP-20260427-retry-jitter.md'));
    const gone = await openGraph(layout);
    expect(gone.status).toBe('updated');
    const g = new KnowledgeGraph(gone.files);
    expect(g.nodes.has('knowhow:tip-20260427-retry-jitter')).toBe(false);
    // The spec's ref to it is now a dangling edge, not an error.
    expect(g.edges.find((e) => e.kind === 'ref')?.problem).toMatchObject({ state: 'dangling', end: 'to' });
  });

  it('persist: false answers in memory and writes nothing', async () => {
    const root = tmpProject(maestroFlowTree());
    const r = await openGraph(workflowLayout(root), { persist: false });
    expect(r).toMatchObject({ status: 'built', persisted: false });
    expect(() => readFileSync(join(graphDir(workflowLayout(root)), GRAPH_FILE))).toThrow();
  });

  it('a damaged ledger is a problem of its file, and the rest of the graph is built', async () => {
    const root = tmpProject(maestroFlowTree());
    writeFileSync(join(root, '.workflow', AUTH), '{"schema_version": "run-knowledge-delta/1.0", ');
    const g = new KnowledgeGraph((await openGraph(workflowLayout(root))).files);
    expect(g.problems.join('\n')).toContain(`.workflow/${AUTH}`);
    expect(g.nodes.has(`spec:${FLOW.retry}`)).toBe(true);
    // The original bytes are untouched.
    expect(readFileSync(join(root, '.workflow', AUTH), 'utf8')).toBe('{"schema_version": "run-knowledge-delta/1.0", ');
  });
});
