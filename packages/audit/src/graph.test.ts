import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { systemRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { FLOW, maestroFlowTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { auditKnowledge, readAuditInput } from './index.js';

describe('audit over ledgers written by maestro-flow', () => {
  it('counts consumption recorded under maestro-flow ids under the canonical entry', () => {
    const layout = workflowLayout(tmpProject(maestroFlowTree()));
    const { input } = readAuditInput(layout, {}, systemRuntime);
    const consumption = input.usage!.consumption!;
    // spec:project:coding-conventions-001 (consumed) → S-20260401-a1b2; knowhow:… (cited) → the tip.
    expect(consumption.get(FLOW.retry)).toBe(1);
    expect(consumption.get(FLOW.tip)).toBe(1);
    const legacy = input.entries.find((e) => e.legacy)!;
    expect(consumption.get(legacy.id)).toBe(1);
    expect(consumption.has('spec:project:coding-conventions-001')).toBe(false);
    // A drifted positional id is never counted under whatever entry holds that position now.
    expect(consumption.get(FLOW.late)).toBeUndefined();
    expect(consumption.get('spec:project:coding-conventions-003')).toBe(1);
  });

  it('reports graph findings and writes nothing (no graph file, no lock)', async () => {
    const root = tmpProject(maestroFlowTree());
    const report = await auditKnowledge(workflowLayout(root));
    const by = (subtype: string) => report.findings.filter((f) => f.subtype === subtype);
    expect(by('contradicted-across-sessions').map((f) => f.target)).toEqual([FLOW.retry]);
    expect(by('active-duplicate-cluster')).toMatchObject([{ target: FLOW.retry, related: [FLOW.utc], priority: 'P1' }]);
    expect(
      by('broken-chain')
        .map((f) => f.related[0])
        .sort(),
    ).toEqual(['spec:project:coding-conventions-003', 'spec:project:coding-conventions-009']);
    expect(by('broken-chain')[0].id).toMatch(/^KAU-[a-f0-9]{10}$/);
    expect(existsSync(join(root, '.workflow/.index/graph'))).toBe(false);
    const spec = await auditKnowledge(workflowLayout(root), { scope: 'knowhow' });
    expect(spec.findings.filter((f) => f.subtype === 'contradicted-across-sessions')).toEqual([]);
  });
});
