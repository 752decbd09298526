import type { WorkflowLayout } from '@maestro/fs';
import { loadCorpus, readSpecHealth } from '@maestro/spec';
import type { z } from 'zod';
import { readEvidenceRows } from './read-pipeline.js';
import { evidenceSummary } from './rules-evidence.js';
import type { SpecHealthEvidenceOutput } from './schemas.js';

/**
 * What `maestro spec health` prints: @maestro/spec's counts plus the spec entries' evidence from
 * the run ledgers (validated / cited / contradicted across distinct sessions) and the
 * contradicted-by-runs findings. Lives here because spec sits below the ledger.
 */
export function specHealthWithEvidence(layout: WorkflowLayout, now: Date): z.infer<typeof SpecHealthEvidenceOutput> {
  const corpus = loadCorpus(layout);
  const health = readSpecHealth(layout, now, corpus);
  const { rows, skipped } = readEvidenceRows(layout);
  const specs = corpus.entries.filter((e) => e.store === 'spec');
  const ids = new Set(specs.map((e) => e.id));
  const { summary, findings } = evidenceSummary(
    specs,
    rows.filter((r) => ids.has(r.knowledge_id)),
    (store) => store === 'spec',
  );
  const note = skipped > 0 ? `${summary.note}; ${skipped} damaged session or run file(s) skipped` : summary.note;
  return { ...health, evidence: { ...summary, note }, evidence_findings: findings };
}
