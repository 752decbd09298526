import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { publishDir } from './publish.js';
import { readRun, startRun } from './run.js';
import { createSession, listSessions, readSession } from './session.js';

describe('publishDir', () => {
  test('creates the folder with its file in one rename, leaving nothing hidden behind', () => {
    const parent = tmpDir();
    expect(publishDir(parent, 'a', 'x.json', '{}\n')).toBe(true);
    expect(readFileSync(join(parent, 'a/x.json'), 'utf8')).toBe('{}\n');
    expect(readdirSync(parent)).toEqual(['a']);
  });

  test('a folder with content wins; an empty one (an interrupted create) is replaced', () => {
    const parent = tmpDir();
    mkdirSync(join(parent, 'taken'));
    writeFileSync(join(parent, 'taken/keep.txt'), 'mine');
    expect(publishDir(parent, 'taken', 'x.json', '{}\n')).toBe(false);
    expect(readdirSync(join(parent, 'taken'))).toEqual(['keep.txt']);
    mkdirSync(join(parent, 'empty'));
    expect(publishDir(parent, 'empty', 'x.json', '{}\n')).toBe(true);
    expect(readdirSync(parent).sort()).toEqual(['empty', 'taken']);
  });
});

describe('an empty session or run folder left by an interrupted create', () => {
  const rt = fixedRuntime('2026-01-02T03:04:05Z');
  test('is named with the fix, and creating the same id again recovers it', async () => {
    const layout = workflowLayout(tmpProject({ '.workflow/specs/.keep': '' }));
    mkdirSync(join(layout.sessions, '20260102-half'), { recursive: true });
    expect(() => readSession(layout, '20260102-half')).toThrow(
      expect.objectContaining({
        code: 'SESSION_INVALID',
        hint: expect.stringContaining('maestro session create --id 20260102-half'),
      }),
    );
    expect(listSessions(layout).problems[0].message).toContain('session.json is missing and its folder is empty');
    expect((await createSession(layout, { id: '20260102-half' }, rt)).session_id).toBe('20260102-half');
    expect(readSession(layout, '20260102-half').status).toBe('running');
    mkdirSync(join(layout.sessions, '20260102-half/runs/20260102-001-plan'), { recursive: true });
    expect(() => readRun(layout, '20260102-half', '20260102-001-plan')).toThrow(
      expect.objectContaining({ code: 'RUN_INVALID', hint: expect.stringContaining('--id 20260102-001-plan') }),
    );
    await startRun(layout, { sessionId: '20260102-half', id: '20260102-001-plan' }, rt);
    expect(readRun(layout, '20260102-half', '20260102-001-plan').status).toBe('running');
  });
});
