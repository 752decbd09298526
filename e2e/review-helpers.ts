import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { candidateId } from '@maestro/core';
import { CLI_BIN, copyDir, sessionTree, tmpDir, writeTree } from '@maestro/test-utils';
import { afterAll } from 'vitest';
import { ok } from './reconcile-helpers.js';

/** A project with three rules (one Chinese) and a session whose runs staged a conflict, a paraphrase, Chinese, a unique rule and HTML. */
export const S = '20260301-review';
export const R1 = '20260301-001-plan';
export const R2 = '20260301-002-build';
export const HOSTILE = 'Never echo <script>window.__pwned = 1</script> or </textarea><img src=x> into a page.';

let template: { root: string; ids: Record<string, string> } | null = null;

/** A fresh copy of the review project (built through the CLI once per test file). */
export function reviewProject(): { root: string; ids: Record<string, string> } {
  template ??= buildProject();
  const root = tmpDir('maestro-review-');
  copyDir(template.root, root);
  return { root, ids: template.ids };
}

afterAll(() => {
  if (template) rmSync(template.root, { recursive: true, force: true });
});

const entry = (sid: string, title: string, text: string) =>
  `<spec-entry category="coding" keywords="coding" date="2026-01-01" sid="${sid}" title="${title}">\n\n### ${title}\n\n${text}\n\n</spec-entry>\n`;

/** Written as files (one CLI call instead of a dozen), then reconciled by the CLI. */
function buildProject(): { root: string; ids: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'maestro-review-template-'));
  const ids: Record<string, string> = { logger: 'S-20260101-lg01', utc: 'S-20260101-utc1', privacy: 'S-20260101-zh01' };
  const c = (content: string, title: string) => ({ content, title, category: 'coding' });
  const conflict = c('Use winston for application logging.', 'Logger');
  const duplicate = c('Persist every date-time value as Coordinated Universal Time.', 'Time');
  const chinese = c('接口日志中禁止输出访问令牌和刷新令牌。', '令牌日志');
  const flags = c('Remove feature flags within two sprints after full rollout.', 'Flags');
  const hostile = c(HOSTILE, 'Escape <b>user</b> text');
  writeTree(root, {
    '.workflow/specs/coding-conventions.md': `# Coding\n\n## Entries\n\n${[
      entry(ids.logger, 'Logger', 'Use pino for application logging.'),
      entry(ids.utc, 'UTC', 'Store all timestamps in UTC.'),
      entry(ids.privacy, '日志脱敏', '日志中禁止输出用户手机号和身份证号。'),
    ].join('\n')}`,
    ...sessionTree({
      sessionId: S,
      at: '2026-02-20T09:00:00.000Z',
      runs: [
        { runId: R1, candidates: [conflict, duplicate, hostile] },
        { runId: R2, candidates: [duplicate, chinese, flags] },
      ],
    }),
  });
  for (const [k, v] of Object.entries({ conflict, duplicate, chinese, flags, hostile })) {
    ids[k] = candidateId('spec', v.content);
  }
  ok(root, ['knowledge', 'review', S, '--refresh']);
  return { root, ids };
}

export interface Serving {
  url: string;
  origin: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
  /** Ctrl+C; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built `maestro review serve --json` and waits for its one JSON document. */
export function serve(root: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Serving> {
  const child = spawn(process.execPath, [CLI_BIN, 'review', 'serve', '--json', '--workflow-root', root, ...args], {
    env: { ...process.env, NO_COLOR: '1', MAESTRO_CHECK_OUTPUT: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((done, fail) => {
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!out.endsWith('}\n')) return;
      const doc = JSON.parse(out) as { url: string; origin: string; port: number };
      done({
        ...doc,
        child,
        stderr: () => err,
        stop: () => {
          child.kill('SIGINT');
          return exited;
        },
      });
    });
    void exited.then((code) => fail(new Error(`review serve exited ${code} before listening:\n${err}`)));
  });
}
