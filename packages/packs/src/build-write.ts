import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inputError, type Runtime, sha256 } from '@maestro/core';
import { writeFileAtomic, writeJsonAtomic } from '@maestro/fs';
import type { PackBuildPlan } from './build.js';
import type { PackBuildOutputData } from './output-schemas.js';
import { ENTRY_FILE, readPackHead } from './pack-head.js';
import { isInside, safeRealpath } from './paths.js';
import { runStamp } from './record.js';
import type { CompileRunRecord } from './standard-schemas.js';
import { estimateTokens } from './tokens.js';
import { validatePack } from './validate.js';

type Operation = 'created' | 'updated' | 'deleted' | 'unchanged';

/**
 * Refuses to write into a directory that holds anything but a pack maestro built: a foreign
 * pack or unrelated files are never overwritten (bad input, exit 2).
 */
function guardOutput(out: string): void {
  if (!existsSync(out) || readdirSync(out).length === 0) return;
  if (!existsSync(join(out, ENTRY_FILE))) {
    throw inputError('PACK_BUILD_OUT_NOT_EMPTY', `${out} is not empty and holds no pack; refusing to write into it`, {
      hint: 'pass --out <new or empty directory>',
    });
  }
  const head = readPackHead(out, safeRealpath(out) ?? out);
  if (head.manifest?.producedBy?.name !== 'maestro') {
    throw inputError(
      'PACK_BUILD_FOREIGN_PACK',
      `${join(out, ENTRY_FILE)} was not produced by maestro; refusing to overwrite it`,
      { hint: 'pass --out <another directory>' },
    );
  }
}

/** Splits a previous build listed in its compiled/index.json, so stale ones can be removed. */
function previousSplits(out: string): string[] {
  try {
    const index = JSON.parse(readFileSync(join(out, 'compiled/index.json'), 'utf8')) as {
      splits?: { path?: unknown }[];
    };
    return (index.splits ?? [])
      .map((s) => s.path)
      .filter((p): p is string => typeof p === 'string' && p.startsWith('compiled/splits/') && !p.includes('..'));
  } catch {
    return [];
  }
}

/**
 * Writes a planned pack into `out` (each file atomically), removes splits of the previous build
 * that no longer exist, appends `runs/compile-<stamp>.json`, then validates the result with the
 * same validator as `maestro pack validate`.
 */
export async function writePackBuild(
  plan: PackBuildPlan,
  out: string,
  o: { runtime: Runtime; maestroVersion: string },
): Promise<PackBuildOutputData> {
  guardOutput(out);
  const outputs: { path: string; operation: Operation }[] = [];
  const stale = previousSplits(out).filter((p) => !plan.files.has(p));
  for (const [rel, content] of plan.files) {
    const abs = join(out, rel);
    const before = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
    const operation: Operation = before === null ? 'created' : before === content ? 'unchanged' : 'updated';
    if (operation !== 'unchanged') await writeFileAtomic(abs, content);
    outputs.push({ path: rel, operation });
  }
  const realOut = safeRealpath(out) ?? out;
  for (const rel of stale) {
    const abs = join(realOut, rel);
    if (!isInside(realOut, abs) || !existsSync(abs)) continue;
    rmSync(abs);
    outputs.push({ path: rel, operation: 'deleted' });
  }
  const stamp = runStamp(o.runtime.now());
  let runId = `compile-${stamp}`;
  for (let n = 2; existsSync(join(out, 'runs', `${runId}.json`)); n++) runId = `compile-${stamp}-${n}`;
  const run = compileRun(plan, runId, outputs, o.maestroVersion);
  const runPath = `runs/${runId}.json`;
  await writeJsonAtomic(join(out, runPath), run);
  const valid = validatePack(out).ok;
  return {
    pack: out,
    name: plan.name,
    entries: plan.entries.length,
    specs: plan.entries.filter((e) => e.store === 'spec').length,
    knowhow: plan.entries.filter((e) => e.store === 'knowhow').length,
    files: [...outputs, { path: runPath, operation: 'created' }],
    run: runPath,
    valid,
  };
}

function compileRun(
  plan: PackBuildPlan,
  runId: string,
  outputs: { path: string; operation: Operation }[],
  version: string,
): CompileRunRecord {
  const inputs = [...new Set(plan.entries.map((e) => `.workflow/${e.file}`))].sort().map((path) => ({ path }));
  const doc = plan.files.get(plan.document) ?? '';
  return {
    run_id: runId,
    trigger: 'manual',
    status: 'passed',
    inputs,
    outputs,
    compiler: { tool: 'maestro', version },
    profile: 'document-first',
    runtime_mode: 'data',
    primary_document: plan.document,
    documents: [{ path: plan.document, role: 'primary', status: 'ready', sha256: sha256(doc) }],
    chapters: plan.splits.map((s) => ({
      id: s.id,
      title: s.title,
      coverage: 'full' as const,
      document: plan.document,
      path: s.path,
      tokens: estimateTokens(plan.files.get(s.path) ?? ''),
    })),
  };
}
