import type { z } from 'zod';
import type { PackIssue } from './model.js';
import { CompileRun, ContextResolution, SelectionEval, SourceMap } from './standard-schemas.js';

export type RecordKind = 'compile-run' | 'source-map' | 'selection-eval' | 'context-resolution';

export const RECORD_SCHEMAS: Record<RecordKind, z.ZodType> = {
  'compile-run': CompileRun,
  'source-map': SourceMap,
  'selection-eval': SelectionEval,
  'context-resolution': ContextResolution,
};

/**
 * Which standard schema a JSON file under `runs/` or `evals/` follows, inferred the way the
 * reference CLI does (file name first, then tell-tale keys); null when it follows none of them
 * (health reports, answer-quality evals), which are then only checked to be valid JSON.
 */
export function inferRecordKind(file: string, data: unknown): RecordKind | null {
  const base = file.split('/').pop() ?? file;
  const keys = data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
  if (base.includes('source-map') || keys.includes('claims')) return 'source-map';
  if (base.includes('discovery') || keys.includes('cases')) return 'selection-eval';
  if (base.startsWith('context') || keys.includes('activated_packs')) return 'context-resolution';
  if (base.startsWith('compile') || keys.includes('trigger')) return 'compile-run';
  return null;
}

export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/**
 * Checks `data` against a standard schema and phrases every problem the way the reference
 * validator does ("Missing required field: x.", "Expected one of: a, b."), naming the file and
 * the JSON path. Unknown fields are warnings: newer producers may add them.
 */
export function schemaFindings(kind: RecordKind, data: unknown, file: string): PackIssue[] {
  const result = RECORD_SCHEMAS[kind].safeParse(data);
  if (result.success) return [];
  const out: PackIssue[] = [];
  for (const iss of result.error.issues) {
    const field = formatFieldPath(iss.path);
    const at = (message: string, f = field, severity: 'error' | 'warning' = 'error') =>
      out.push({
        severity,
        code: severity === 'error' ? 'PACK_SCHEMA' : 'PACK_SCHEMA_UNEXPECTED',
        file,
        field: f || undefined,
        message: `${f ? `${f}: ` : ''}${message}`,
      });
    switch (iss.code) {
      case 'unrecognized_keys':
        for (const key of iss.keys) {
          at(`Unexpected field: ${key}.`, field ? `${field}.${key}` : key, 'warning');
        }
        break;
      case 'invalid_type':
        if (valueAt(data, iss.path) === undefined) at(`Missing required field: ${String(iss.path.at(-1) ?? '')}.`);
        else at(`Expected ${iss.expected}.`);
        break;
      case 'too_small':
        at(
          iss.origin === 'array'
            ? `Expected at least ${iss.minimum} items.`
            : `Expected at least ${iss.minimum} characters.`,
        );
        break;
      case 'invalid_value':
        at(`Expected one of: ${iss.values.map(String).join(', ')}.`);
        break;
      default:
        at(iss.message);
    }
  }
  return out;
}
