import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { inputError, parseJsonText } from '@maestro/core';
import { planActivation } from './activate.js';
import type { Catalog, CatalogEntry } from './catalog.js';
import { tryReadHead } from './frontmatter.js';
import { loadCatalog, type PackScopeOptions } from './load-catalog.js';
import type { PackEvalOutputData } from './output-schemas.js';
import { listPackFiles } from './pack-tree.js';
import { SelectionEval, type SelectionEvalSuite } from './standard-schemas.js';
import { schemaFindings } from './validate-json.js';

/** A suite is read at most this far (and only when it is a regular file: never a FIFO or device). */
const SUITE_CAP_BYTES = 8 * 1024 * 1024;

export type EvalVerdict = 'select' | 'reject' | 'warn';

/**
 * What activation would do with one prompt for one pack, as a selection-eval verdict: `select`
 * when it is used as ready, `warn` when it is used with status warnings or held pending
 * confirmation or approval, `reject` when it is not activated. Pure.
 */
export function evalVerdict(entry: CatalogEntry, prompt: string, hints?: string): EvalVerdict {
  const probe: CatalogEntry = { ...entry, explicit: false };
  const catalog: Catalog = { entries: [probe], active: new Map([[probe.name, probe]]), diagnostics: [] };
  const plan = planActivation(catalog, {
    query: prompt,
    confirmed: new Set(),
    resolverHints: hints ? new Map([[probe.name, hints]]) : undefined,
  });
  if (plan.pending.length > 0) return 'warn';
  const used = plan.activated[0];
  if (!used) return 'reject';
  return used.manifest.status === 'ready' ? 'select' : 'warn';
}

/** Reads and checks a selection-eval suite; any problem is bad input naming the file and field. */
export function readSuite(path: string): SelectionEvalSuite {
  if (!existsSync(path))
    throw inputError('PACK_SUITE_NOT_FOUND', `suite not found: ${path}`, {
      hint: 'pass --suite <file> (relative to the current directory or to the pack)',
    });
  const head = tryReadHead(path, SUITE_CAP_BYTES);
  if (head === null || head.truncated) {
    throw inputError('PACK_SUITE_UNREADABLE', `${path}: ${head ? 'larger than 8 MB' : 'not a readable regular file'}`, {
      hint: 'pass a selection-eval JSON file',
    });
  }
  const data = parseJsonText(head.text.replace(/^\uFEFF/, ''), path);
  const findings = schemaFindings('selection-eval', data, path).filter((f) => f.severity === 'error');
  if (findings.length > 0) {
    throw inputError('PACK_SUITE_INVALID', `${path}: ${findings.map((f) => f.message).join('; ')}`, {
      hint: 'a suite is {"pack_name": "...", "cases": [{"id", "prompt", "expected": "select|reject|warn"}]}',
      location: { file: path },
    });
  }
  return SelectionEval.parse(data);
}

/**
 * `maestro pack eval <pack> --suite <file>`: runs every case through the same activation rules
 * as `pack resolve` and reports the pass rate. The suite path is taken from the current
 * directory, or else from the pack root (`evals/discovery.validation.json`).
 */
export function evalPack(o: PackScopeOptions & { pack: string; suite: string }): PackEvalOutputData {
  const loaded = loadCatalog({ ...o, packs: [o.pack] });
  const entry = [...loaded.catalog.active.values()].find((e) => e.explicit);
  if (!entry) throw inputError('PACK_NOT_FOUND', `no usable pack ${o.pack}`, { hint: 'run `maestro pack list`' });
  const fromCwd = isAbsolute(o.suite) ? o.suite : resolve(o.cwd, o.suite);
  const suitePath = existsSync(fromCwd) ? fromCwd : join(entry.pack.realRoot, o.suite);
  const suite = readSuite(existsSync(suitePath) ? suitePath : fromCwd);
  const hints = listPackFiles(entry.pack.realRoot, { under: 'compiled', maxDepth: 3, maxEntries: 500 })
    .files.map((f) => f.rel.replace(/\.[a-z]+$/i, '').replace(/[/_.-]+/g, ' '))
    .join('\n');
  const results = suite.cases.map((c) => {
    const actual = evalVerdict(entry, c.prompt, hints || undefined);
    return { id: c.id, prompt: c.prompt, expected: c.expected, actual, passed: actual === c.expected };
  });
  const passed = results.filter((r) => r.passed).length;
  const total = results.length;
  return {
    ok: passed === total,
    status: passed === total ? 'passed' : 'failed',
    command: 'eval',
    pack: entry.pack.root,
    suite: existsSync(suitePath) ? suitePath : fromCwd,
    results,
    summary: {
      passed,
      failed: total - passed,
      total,
      pass_rate: total === 0 ? 0 : Math.round((passed / total) * 10000) / 10000,
    },
  };
}
