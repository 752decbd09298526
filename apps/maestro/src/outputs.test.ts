import { describe, expect, it } from 'vitest';
import { checkOutput, PUBLISHED } from './output-check.js';
import { OUTPUT_SCHEMAS } from './outputs.js';
import { COMMANDS } from './registry.js';

describe('output schemas', () => {
  it('declares a published schema for every command and no stale entries', () => {
    const paths = COMMANDS.map((c) => c.path.join(' ')).sort();
    expect(Object.keys(OUTPUT_SCHEMAS).sort()).toEqual(paths);
    for (const names of Object.values(OUTPUT_SCHEMAS)) for (const n of names) expect(PUBLISHED[n], n).toBeDefined();
  });

  it('rejects a document that does not match and accepts one that does', () => {
    expect(() => checkOutput('init', { root: '/x', created: [], existing: [], updated: [] })).not.toThrow();
    expect(() => checkOutput('init', { root: 1 })).toThrow(/does not match its schema: init-output: root/);
    expect(() => checkOutput(null, { schema_version: 'maestro-error/1.0' })).toThrow(/error-output/);
  });
});
