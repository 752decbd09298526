import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// e2e may depend only on the root's devDependencies, so the schemas come from the package source.
import { SearchExpandedOutput } from '@maestro/cli';
import { GraphPathOutput, GraphShowOutput } from '@maestro/graph';
import { FLOW, maestroFlowTree, runMaestro, runMaestroAsync, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

const env = { MAESTRO_NOW: '2026-06-01T10:00:00Z' };
const m = (root: string, ...args: string[]) => runMaestro([...args, '--workflow-root', root], { env });

describe('maestro graph show / path on a project in maestro-flow formats', () => {
  test('show: neighbours with edge kinds and file:line, every source of truth', () => {
    const root = tmpProject(maestroFlowTree());
    const r = m(root, 'graph', 'show', FLOW.retry, '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = GraphShowOutput.parse(r.json());
    expect(out.node).toMatchObject({ id: `spec:${FLOW.retry}`, entry_id: FLOW.retry, kind: 'spec' });
    expect(out.node.aliases).toContain('spec:project:coding-conventions-001');
    const seen = out.neighbours.map(
      (n) => `${n.edge.kind}:${n.edge.direction}:${n.node.id}:${n.edge.file}:${n.edge.line}`,
    );
    expect(seen).toContain(
      'consumed:in:run:20260415-auth/20260415-001-plan:sessions/20260415-auth/runs/20260415-001-plan/knowledge-delta.json:10',
    );
    expect(seen).toContain(
      'contradicted:in:run:20260415-auth/20260415-001-plan:sessions/20260415-auth/runs/20260415-001-plan/knowledge-delta.json:18',
    );
    expect(seen).toContain(
      'contradicted:in:run:20260416-billing/20260416-001-build:sessions/20260416-billing/runs/20260416-001-build/knowledge-delta.json:10',
    );
    expect(seen).toContain(
      `resolved_as:in:candidate:${FLOW.promoted}:sessions/20260402-utc/runs/20260402-001-plan/knowledge-reconciliation.json:28`,
    );
    expect(out.neighbours.some((n) => n.edge.kind === 'same_file' && n.node.entry_id === FLOW.utc)).toBe(true);
    expect(out.graph.status).toBe('built');

    const two = GraphShowOutput.parse(
      m(root, 'graph', 'show', FLOW.utc, '--depth', '2', '--edge', 'promoted_from,ref', '--json').json(),
    );
    const kinds = two.neighbours.map((n) => `${n.depth}:${n.edge.kind}:${n.node.id}:${n.edge.file}`);
    const ledger = 'sessions/20260402-utc/runs/20260402-001-plan/knowledge-delta.json';
    // promoted_from twice at depth 1: the entry's source attribute and the ledger's promotion receipt.
    expect(kinds).toEqual([
      '1:ref:knowhow:tip-20260427-retry-jitter:specs/coding-conventions.md',
      `1:promoted_from:candidate:${FLOW.promoted}:specs/coding-conventions.md`,
      `1:promoted_from:candidate:${FLOW.promoted}:${ledger}`,
      `2:promoted_from:run:20260402-utc/20260402-001-plan:${ledger}`,
    ]);
    expect(two.graph.status).toBe('fresh');

    const marked = GraphShowOutput.parse(
      m(root, 'graph', 'show', FLOW.late, '--edge', 'conflict_marked', '--json').json(),
    );
    expect(marked.neighbours).toMatchObject([
      {
        node: { id: `candidate:${FLOW.promoted}` },
        edge: { kind: 'conflict_marked', direction: 'out', file: 'specs/coding-conventions.md', line: 34 },
      },
    ]);
  });

  test('concurrent first commands all answer and leave one valid graph file', async () => {
    const root = tmpProject(maestroFlowTree());
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() =>
        runMaestroAsync(['graph', 'show', FLOW.retry, '--json', '--workflow-root', root], { env }),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(new Set(runs.map((r) => JSON.stringify(GraphShowOutput.parse(r.json()).neighbours))).size).toBe(1);
    const again = m(root, 'graph', 'show', FLOW.retry, '--json');
    expect(again.stderr).not.toContain('rebuilt');
    expect(readdirSync(join(root, '.workflow/.index/graph')).filter((f) => f !== 'graph.json')).toEqual([]);
  });

  test('text output names where each edge is written; a positional alias is resolved and said', () => {
    const root = tmpProject(maestroFlowTree());
    const r = m(root, 'graph', 'show', 'spec:project:coding-conventions-002');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${FLOW.utc} Store UTC timestamps (spec)`);
    expect(r.stdout).toContain('from .workflow/specs/coding-conventions.md:22');
    expect(r.stderr).toContain(`resolved alias spec:project:coding-conventions-002 to ${FLOW.utc}`);
  });

  test('path: the chain from a promoted rule to the session it came from', () => {
    const root = tmpProject(maestroFlowTree());
    const r = m(root, 'graph', 'path', FLOW.utc, '20260402-utc', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = GraphPathOutput.parse(r.json());
    expect(out.found).toBe(true);
    expect(out.hops.map((h) => `${h.edge.kind}:${h.node.id}`)).toEqual([
      `promoted_from:candidate:${FLOW.promoted}`,
      'promoted_from:run:20260402-utc/20260402-001-plan',
      'promoted_from:session:20260402-utc',
    ]);
    const none = GraphPathOutput.parse(
      m(root, 'graph', 'path', FLOW.late, '20260402-utc', '--edge', 'supersedes', '--json').json(),
    );
    expect(none).toMatchObject({ found: false, hops: [] });
  });

  test('bad input: unknown id, drifted positional id, bad depth and edge kind are exit 2', () => {
    const root = tmpProject(maestroFlowTree());
    const unknown = m(root, 'graph', 'show', 'S-20990101-zzzz');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no knowledge, session, run or candidate with id S-20990101-zzzz');
    const drifted = m(root, 'graph', 'show', 'spec:project:coding-conventions-009', '--json');
    expect(drifted.code).toBe(2);
    expect(drifted.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'DRIFTED_KNOWLEDGE_ID',
    });
    expect(m(root, 'graph', 'show', FLOW.retry, '--depth', '9').stderr).toContain(
      '--depth must be a whole number from 1 to 5',
    );
    const edge = m(root, 'graph', 'show', FLOW.retry, '--edge', 'likes');
    expect(edge.code).toBe(2);
    expect(edge.stderr).toContain('unknown edge kind(s): likes');
    expect(m(root, 'graph', 'path', FLOW.retry).code).toBe(2);
  });

  test('a corrupt graph file is rebuilt with a warning; a read-only index still answers', () => {
    const root = tmpProject(maestroFlowTree());
    expect(m(root, 'graph', 'show', FLOW.retry).code).toBe(0);
    const file = join(root, '.workflow/.index/graph/graph.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Retry with backoff', 'Retry with bakoff'));
    const r = m(root, 'graph', 'show', FLOW.retry, '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(graph.json fails its checksum); rebuilt it from the sources');
    expect(GraphShowOutput.parse(r.json()).node.label).toBe('Retry with backoff');
    writeFileSync(file, '{"schema_version": ');
    expect(m(root, 'graph', 'show', FLOW.retry).stderr).toContain('is not valid JSON');

    const dir = join(root, '.workflow/.index/graph');
    chmodSync(file, 0o444);
    chmodSync(dir, 0o555);
    try {
      writeFileSync(join(root, '.workflow/specs/extra.md'), '### [coding] [2026-05-01] Extra\n\nbody\n');
      const ro = m(root, 'graph', 'show', 'spec:project:extra-001', '--json');
      if (process.getuid?.() === 0) return; // root writes anyway
      expect(ro.code, ro.stderr).toBe(0);
      expect(ro.stderr).toContain('could not save the knowledge graph');
    } finally {
      chmodSync(dir, 0o755);
      chmodSync(file, 0o644);
    }
  });
});

describe('--expand on search and context', () => {
  test('search --expand: a superseded hit points at its successor; resolved relations are labelled', () => {
    const root = tmpProject(maestroFlowTree());
    expect(m(root, 'spec', 'supersede', FLOW.retry, '--by', FLOW.late).code).toBe(0);
    const r = m(root, 'search', 'retry', 'backoff', '--include-deprecated', '--expand', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = SearchExpandedOutput.parse(r.json());
    expect(out.results[0]).toMatchObject({
      id: FLOW.retry,
      graphId: `spec:${FLOW.retry}`,
      aliases: [`spec:${FLOW.retry}`],
    });
    const first = out.expanded.hits.find((h) => h.id === FLOW.retry)!;
    expect(first.neighbours[0]).toMatchObject({
      id: FLOW.late,
      relation: 'successor (superseded_by)',
      file: 'specs/coding-conventions.md',
    });
    expect(first.neighbours.map((n) => n.relation)).toContain(`resolved as duplicate (via ${FLOW.promoted})`);
    const text = m(root, 'search', 'retry', 'backoff', '--include-deprecated', '--expand');
    expect(text.stdout).toContain('Related through the knowledge graph');
    expect(text.stdout).toContain(`${FLOW.late} Late rule  successor (superseded_by) of ${FLOW.retry}`);
    // Without --expand the output is unchanged: no graph is opened or written.
    const plain = tmpProject(maestroFlowTree());
    expect(m(plain, 'search', 'retry', '--json').json()).not.toHaveProperty('expanded');
    expect(existsSync(join(plain, '.workflow/.index/graph'))).toBe(false);
  });

  test('context --expand adds the related active rules after the hits, labelled, inside the budget', () => {
    const root = tmpProject(maestroFlowTree());
    const r = m(root, 'context', 'how do we retry with backoff', '--expand', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{ specs: { id: string; title: string }[]; expanded: { hits: { id: string }[] } }>();
    expect(out.expanded.hits[0].id).toBe(FLOW.retry);
    const related = out.specs.find((s) => s.id === FLOW.utc);
    expect(related?.title).toBe(`Store UTC timestamps (resolved as duplicate (via ${FLOW.promoted}) of ${FLOW.retry})`);
    const tight = m(root, 'context', 'how do we retry with backoff', '--expand', '--budget', '120', '--json');
    expect(tight.code, tight.stderr).toBe(0);
  });
});
