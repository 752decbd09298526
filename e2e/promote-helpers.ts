import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { candidateId, fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { reconcileSession, resolveCandidates } from '@maestro/reconcile';
import { type CandidateSpec, type CliRun, readTree, runMaestro, runMaestroAsync, type Tree } from '@maestro/test-utils';
import { expect } from 'vitest';

/** Shared by the promote e2e tests: distinct candidate texts, CLI wrappers and state snapshots. */

export const NOW = '2026-03-04T05:06:07.000Z';
export const env = { MAESTRO_NOW: NOW };

const SYL = ['ka', 'lu', 'mi', 'no', 're', 'sa', 'ti', 'vo', 'ze', 'qua', 'bri', 'dro', 'fle', 'gno', 'plu', 'stra'];

/** A pseudo-word unique to (i, k): texts of different candidates share no words. */
function word(i: number, k: number): string {
  let n = i * 131 + k * 7 + 17;
  let w = '';
  for (let s = 0; s < 4; s++) {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length) + (s + 1) * 5 + i;
  }
  return `${w}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7 + k) % 26))}`;
}

/** A spec candidate whose title and content share nothing with any other index. */
export function distinct(i: number, extra: Partial<CandidateSpec> = {}): CandidateSpec {
  const ws = Array.from({ length: 9 }, (_, k) => word(i, k));
  return {
    title: `${ws[0]} ${ws[1]} ${ws[2]}`,
    content: `Every ${ws[3]} keeps its ${ws[4]} beside the ${ws[5]}; ${ws[6]} ${ws[7]} ${ws[8]}.`,
    ...extra,
  };
}

export const idOf = (c: CandidateSpec) => candidateId(c.target ?? 'spec', c.content);

/** `knowledge review <session> --refresh`, in process (the receipts the promoter fences against). */
export async function refresh(root: string, sessionId: string): Promise<void> {
  await reconcileSession(workflowLayout(root), sessionId, { refresh: true }, fixedRuntime(NOW));
}

/** `knowledge review <session> --resolve <cid> --as supersede --target <id> --reason r`, in process. */
export async function resolveSupersede(root: string, sessionId: string, cid: string, target: string): Promise<void> {
  const request = { candidateIds: [cid], choice: 'supersede' as const, target, reason: 'the limit was raised' };
  await resolveCandidates(workflowLayout(root), sessionId, request, fixedRuntime(NOW));
}

/** Runs the binary in `root` with the pinned clock and asserts the exit code. */
export function m(root: string, args: string[], code = 0, extraEnv: NodeJS.ProcessEnv = {}): CliRun {
  const r = runMaestro([...args, '--workflow-root', root], { env: { ...env, ...extraEnv } });
  expect(r.code, `maestro ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(code);
  return r;
}

export function mAsync(root: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runMaestroAsync([...args, '--workflow-root', root], { env: { ...env, ...extraEnv } });
}

/** Specs, knowhow, ledgers and session.json: what promotion writes (no receipts, no derived state). */
export function promotedState(root: string): Tree {
  return readTree(join(root, '.workflow'), (rel) => {
    if (rel === '.index' || rel.endsWith('.lock')) return true;
    if (rel.endsWith('knowledge-reconciliation.json')) return true;
    return false;
  });
}

/** Locks, temp files and intents left anywhere under `.workflow/`. */
export function leftovers(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else if (/\.lock$|\.tmp$|\.intent\.json$|\.(md|json)\.\d+$/.test(name)) out.push(relative(root, abs));
    }
  };
  walk(join(root, '.workflow'));
  return out;
}
