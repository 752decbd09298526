import { BacklogOutput } from '@maestro/reconcile';
import { describe, expect, it } from 'vitest';
import { maestro, storyProject } from './reconcile-helpers.js';

const LATER = '2026-05-01T12:00:00.000Z';

describe('maestro knowledge backlog', () => {
  it('lists pending candidates across sessions by severity with the next command', () => {
    const { root, ids } = storyProject();
    maestro(root, ['knowledge', 'review', '20260301-auth', '--refresh']);
    const b = BacklogOutput.parse(maestro(root, ['knowledge', 'backlog', '--json']).json());
    expect(b.items.map((i) => i.candidate_id)).toEqual([ids.conflict, ids.duplicate, ids.unique, ids.exact]);
    expect(b.items[2].command).toBe(`maestro knowledge promote 20260301-auth --candidate ${ids.unique}`);
  });

  it('--expire-observed soft-rejects old observed-only candidates; --restore undoes it', () => {
    const { root, ids } = storyProject();
    const young = BacklogOutput.parse(
      maestro(root, ['knowledge', 'backlog', '--expire-observed', '--older-than', '30d', '--json']).json(),
    );
    expect(young.expired).toEqual([]);
    const old = maestro(
      root,
      ['knowledge', 'backlog', '--expire-observed', '--older-than', '30d', '--reason', 'stale idea'],
      LATER,
    );
    expect(old.code).toBe(0);
    expect(old.stdout).toMatch(/undo with: maestro knowledge backlog --restore/);
    expect(BacklogOutput.parse(maestro(root, ['knowledge', 'backlog', '--json'], LATER).json()).items).toEqual([]);
    const restored = BacklogOutput.parse(
      maestro(root, ['knowledge', 'backlog', '--restore', ids.unique, '--json'], LATER).json(),
    );
    expect(restored.restored.map((r) => r.candidate_id)).toEqual([ids.unique]);
    expect(restored.items.map((i) => i.candidate_id)).toEqual([ids.unique]);
  });

  it('rejects bad flags (exit 2)', () => {
    const { root } = storyProject();
    expect(maestro(root, ['knowledge', 'backlog', '--expire-observed']).stderr).toMatch(/go together/);
    expect(maestro(root, ['knowledge', 'backlog', '--expire-observed', '--older-than', 'soon']).code).toBe(2);
    expect(maestro(root, ['knowledge', 'backlog', 'extra']).code).toBe(2);
  });
});
