import { workflowLayout } from '@maestro/fs';
import { FLOW, maestroFlowTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { expandIn, graphFindings, KnowledgeGraph, openGraph, shortestPath } from './index.js';

async function fixtureGraph() {
  return new KnowledgeGraph((await openGraph(workflowLayout(tmpProject(maestroFlowTree())), { persist: false })).files);
}

describe('the graph over a maestro-flow project', () => {
  it('resolves every maestro-flow id form recorded in ledgers to the canonical node', async () => {
    const g = await fixtureGraph();
    const to = (ref: string, at: string | null = null) => g.resolve(ref, at);
    expect(to('spec:project:coding-conventions-001')).toEqual({ node: `spec:${FLOW.retry}` });
    expect(to(`spec:${FLOW.retry}`)).toEqual({ node: `spec:${FLOW.retry}` });
    expect(to('knowhow:tip-20260427-retry-jitter')).toEqual({ node: 'knowhow:tip-20260427-retry-jitter' });
    expect(to(FLOW.tip)).toEqual({ node: 'knowhow:tip-20260427-retry-jitter' });
    expect(to('tip-20260427-retry-jitter')).toEqual({ node: 'knowhow:tip-20260427-retry-jitter' });
    expect(to(`legacy:coding-conventions.md:${FLOW.legacyLine}`)).toMatchObject({
      node: expect.stringMatching(/^spec:D-/),
    });
    // Position 3 holds an entry dated 2026-05-10: an id recorded in April named something else.
    expect(to('spec:project:coding-conventions-003', '2026-04-15T09:00:00Z')).toMatchObject({
      state: 'drifted',
      node: `spec:${FLOW.late}`,
    });
    expect(to('spec:project:coding-conventions-003')).toEqual({ node: `spec:${FLOW.late}` });
    expect(to('spec:project:coding-conventions-009')).toEqual({ state: 'dangling' });
  });

  it('audit findings: broken chains, contradicted across sessions, active duplicate clusters', async () => {
    const g = await fixtureGraph();
    const f = graphFindings(g);
    const broken = f.filter((x) => x.subtype === 'broken-chain').map((x) => x.evidence);
    expect(broken).toEqual([
      expect.stringContaining(
        'names spec:project:coding-conventions-003, a drifted positional id (recorded 2026-04-15',
      ),
      expect.stringContaining('names spec:project:coding-conventions-009, which is not in the project'),
    ]);
    expect(f.find((x) => x.subtype === 'contradicted-across-sessions')).toMatchObject({
      target: FLOW.retry,
      priority: 'P1',
      evidence: 'runs of 2 sessions recorded it as contradicted: 20260415-auth, 20260416-billing',
      file: '.workflow/specs/coding-conventions.md',
      line: 14,
    });
    expect(f.find((x) => x.subtype === 'active-duplicate-cluster')).toMatchObject({
      target: FLOW.retry,
      related: [FLOW.utc],
      command: `maestro spec supersede ${FLOW.utc} --by ${FLOW.retry}`,
    });
  });

  it('expand: a hit shows the rules resolved against it (through the candidate), capped and labelled', async () => {
    const g = await fixtureGraph();
    const e = expandIn(g, [FLOW.retry]);
    expect(e.hits[0].neighbours[0]).toMatchObject({
      id: FLOW.utc,
      relation: `resolved as duplicate (via ${FLOW.promoted})`,
      kind: 'resolved_as',
    });
    expect(e.hits[0].neighbours.length).toBeLessThanOrEqual(3);
    const utc = expandIn(g, [FLOW.utc]).hits[0].neighbours.map((n) => n.relation);
    expect(utc).toContain(`resolved as duplicate (via ${FLOW.promoted})`);
    expect(utc).toContain('its document (ref)');
    // Hits already on the page are not repeated as neighbours.
    expect(expandIn(g, [FLOW.retry, FLOW.utc]).hits[0].neighbours.map((n) => n.id)).not.toContain(FLOW.utc);
  });

  it('path walks edges in either direction and honours the edge filter', async () => {
    const g = await fixtureGraph();
    const hops = shortestPath(g, `spec:${FLOW.retry}`, 'session:20260416-billing', { kinds: null, maxDepth: 8 });
    expect(hops?.map((h) => h.via.kind)).toEqual(['contradicted', 'promoted_from']);
    expect(
      shortestPath(g, `spec:${FLOW.retry}`, 'session:20260416-billing', {
        kinds: new Set(['supersedes']),
        maxDepth: 8,
      }),
    ).toBeNull();
  });
});
