import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Runtime } from '@maestro/core';
import { writeJsonAtomic } from '@maestro/fs';
import type { ResolvedContext } from './resolve.js';
import type { ContextResolutionRecord } from './standard-schemas.js';

export const RESOLVER_STRATEGY = 'profile-aware-budgeted';

/** `20260506T091000Z` — the stamp in `runs/context-<stamp>.json`. */
export function runStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll('-', '')
    .replaceAll(':', '');
}

/**
 * The standard's context-resolution record for a resolution. Returns null when no pack was
 * activated: the standard's schema needs at least one (policy: no record rather than an
 * invalid one). Status: failed when an activated pack contributed nothing; disputed, stale or
 * needs-review when an activated pack has that status or any warning travels; else passed.
 */
export function buildContextRecord(
  resolution: ResolvedContext,
  runId: string,
  version: string,
): ContextResolutionRecord | null {
  const { output, plan } = resolution;
  if (output.packs.length === 0) return null;
  const statuses = new Set(output.packs.map((p) => p.status));
  const status: ContextResolutionRecord['status'] = output.packs.some((p) => p.wrapper_order === null)
    ? 'failed'
    : statuses.has('disputed')
      ? 'disputed'
      : statuses.has('stale')
        ? 'stale'
        : statuses.has('needs-review') || output.packs.some((p) => p.warnings.length > 0)
          ? 'needs-review'
          : 'passed';
  return {
    run_id: runId,
    query: output.query,
    status,
    activated_packs: output.packs.map((p) => {
      const produced = plan.activated.find((a) => a.manifest.name === p.name)?.manifest.producedBy;
      return {
        name: p.name,
        activation: p.activation,
        selected_files: [...p.guide, ...p.selected_files],
        status: p.status,
        trust: p.trust.effective,
        grounding: p.grounding as 'none' | 'recommended' | 'required',
        profile: p.profile,
        runtime_mode: p.runtime_mode,
        selected_documents: p.selected_documents,
        selected_splits: p.selected_splits,
        source_anchors: p.source_anchors,
        warnings: p.warnings.map((message) => ({ severity: 'warning' as const, message })),
        ...(p.wrapper_order !== null ? { wrapper_order: p.wrapper_order } : {}),
        ...(produced?.name
          ? {
              builder_skill: {
                name: produced.name,
                ...(produced.version ? { version: produced.version } : {}),
                ...(produced.digest ? { digest: produced.digest } : {}),
              },
            }
          : {}),
      };
    }),
    resolver: { tool: 'maestro', version, strategy: RESOLVER_STRATEGY },
    missing: output.missing,
    token_estimate: output.token_estimate,
    wrapper_order: output.wrapper_order,
  };
}

/**
 * Where `--record` writes: the pack's own `runs/` when exactly one workspace pack was activated
 * (the standard's place), else the workspace's `runs/` (`<workspace-root>/runs/`). Never into a
 * user, org or built-in pack, which may be shared or read-only.
 */
export function recordDirectory(resolution: ResolvedContext, workspaceRoot: string): string {
  const only = resolution.plan.activated.length === 1 ? resolution.plan.activated[0] : null;
  if (only && only.entry.pack.home === 'workspace') return join(only.entry.pack.realRoot, 'runs');
  return join(workspaceRoot, 'runs');
}

/** Writes the record atomically as `runs/context-<stamp>[-n].json`; returns its path, or null. */
export async function writeContextRecord(
  resolution: ResolvedContext,
  options: { workspaceRoot: string; runtime: Runtime; version: string },
): Promise<string | null> {
  const dir = recordDirectory(resolution, options.workspaceRoot);
  const stamp = runStamp(options.runtime.now());
  let runId = `context-${stamp}`;
  for (let n = 2; existsSync(join(dir, `${runId}.json`)); n++) runId = `context-${stamp}-${n}`;
  const record = buildContextRecord(resolution, runId, options.version);
  if (record === null) return null;
  const path = join(dir, `${runId}.json`);
  await writeJsonAtomic(path, record);
  return path;
}
