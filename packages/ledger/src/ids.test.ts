import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { loadCorpusFor, lookupKnowledge, resolveIdsIn } from './ids.js';
import { startRun } from './run.js';
import { createSession } from './session.js';

const SPEC = `<spec-entry category="coding" keywords="time" date="2026-01-01" sid="S-20260101-utc1" title="Use UTC">

### Use UTC

Store and compare times in UTC.

</spec-entry>
`;

const KNOWHOW = '---\ntitle: Retry\ntype: tip\n---\n\nRetry with jitter.\n';

function corpus() {
  const root = tmpProject({
    '.workflow/specs/coding-conventions.md': SPEC,
    '.workflow/knowhow/TIP-20260101-retry.md': KNOWHOW,
  });
  return loadCorpusFor(workflowLayout(root));
}

describe('lookupKnowledge', () => {
  test('a store prefix in any case, and an id in any case, find the entry', () => {
    const c = corpus();
    for (const ref of [
      'S-20260101-utc1',
      's-20260101-utc1',
      'spec:S-20260101-utc1',
      'spec:s-20260101-utc1',
      'SPEC:S-20260101-UTC1',
    ]) {
      expect(lookupKnowledge(c, ref)?.id, ref).toBe('S-20260101-utc1');
    }
    for (const ref of [
      'knowhow:knowhow-tip-20260101-retry',
      'Knowhow:KNOWHOW-TIP-20260101-RETRY',
      'knowhow:TIP-20260101-retry',
    ]) {
      expect(lookupKnowledge(c, ref)?.id, ref).toBe('knowhow-tip-20260101-retry');
    }
  });

  test('a prefix naming the other store finds nothing', () => {
    const c = corpus();
    expect(lookupKnowledge(c, 'knowhow:S-20260101-utc1')).toBeNull();
    expect(lookupKnowledge(c, 'spec:knowhow-tip-20260101-retry')).toBeNull();
    expect(() => resolveIdsIn(c, ['knowhow:s-20260101-utc1'], { allowUnknown: false })).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_KNOWLEDGE_ID' }),
    );
  });
});

describe('ids given by the user start with a calendar date', () => {
  const rt = fixedRuntime('2026-01-02T03:04:05Z');
  test('session create --id and run start --id refuse impossible dates', async () => {
    const layout = workflowLayout(tmpProject({ '.workflow/specs/.keep': '' }));
    for (const id of ['20261399-x', '20260229-x', '20260100-x']) {
      await expect(createSession(layout, { id }, rt)).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_SESSION_ID', exitCode: 2 }),
      );
    }
    await createSession(layout, { id: '20240229-leap' }, rt);
    await expect(startRun(layout, { sessionId: '20240229-leap', id: '20240230-001-plan' }, rt)).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_RUN_ID', exitCode: 2 }),
    );
    expect((await startRun(layout, { sessionId: '20240229-leap', id: '20240229-001-plan' }, rt)).run_id).toBe(
      '20240229-001-plan',
    );
  });
});
