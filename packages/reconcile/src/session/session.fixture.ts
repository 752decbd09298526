import { fixedRuntime } from '@maestro/core';
import { type WorkflowLayout, workflowLayout } from '@maestro/fs';
import { type RunSpec, sessionTree, type Tree, tmpProject } from '@maestro/test-utils';

/** Test fixtures: a project with spec files and one session of runs, on a fixed clock. */

export const S = '20260102-rec';
export const R1 = '20260102-001-plan';
export const R2 = '20260102-002-build';
export const NOW = '2026-03-04T05:06:07.000Z';
export const runtime = () => fixedRuntime(NOW, { stepMs: 1000 });

export interface SpecSpec {
  sid: string;
  title: string;
  content: string;
  status?: 'active' | 'deprecated';
}

export function specFile(entries: readonly SpecSpec[], category = 'coding'): string {
  const body = entries
    .map((e) => {
      const status = e.status === 'deprecated' ? ' status="deprecated"' : '';
      return `<spec-entry category="${category}" keywords="${category}" date="2026-01-01" sid="${e.sid}" title="${e.title}"${status}>\n\n### ${e.title}\n\n${e.content}\n\n</spec-entry>\n`;
    })
    .join('\n');
  return `# ${category}\n\n## Entries\n\n${body}`;
}

export const LOGGER: SpecSpec = {
  sid: 'S-20260101-lg01',
  title: 'Logger',
  content: 'Use pino for application logging.',
};
export const UTC: SpecSpec = { sid: 'S-20260101-utc1', title: 'UTC', content: 'Store all timestamps in UTC.' };
export const IMAGES: SpecSpec = {
  sid: 'S-20260101-img1',
  title: 'Images',
  content: 'Every image needs meaningful alt text.',
};

export function project(
  runs: RunSpec[],
  specs: { coding?: SpecSpec[]; ui?: SpecSpec[] } = {},
  extra: Tree = {},
): { root: string; layout: WorkflowLayout } {
  const tree: Tree = {
    '.workflow/specs/coding-conventions.md': specFile(specs.coding ?? [LOGGER, UTC]),
    '.workflow/specs/ui-conventions.md': specFile(specs.ui ?? [IMAGES], 'ui'),
    ...sessionTree({ sessionId: S, runs }),
    ...extra,
  };
  const root = tmpProject(tree);
  return { root, layout: workflowLayout(root) };
}

/** The revalidation tests' session: two runs, one candidate each (log rotation, form labels). */
export const ROTATE = 'Rotate log files daily and keep them for thirty days.';
export const rotationRuns = (): RunSpec[] => [
  { runId: R1, candidates: [{ content: ROTATE, title: 'Log rotation' }] },
  { runId: R2, candidates: [{ content: 'Every form field needs a visible label.', title: 'Form labels' }] },
];

/** Twelve entries about things no candidate mentions. */
export const UNRELATED: SpecSpec[] = Array.from({ length: 12 }, (_, i) => ({
  sid: `S-20260201-un${String(i).padStart(2, '0')}`,
  title: `Queue topic ${i}`,
  content: `Kafka partition ${i} consumers commit offsets after processing batch ${i}.`,
}));
