import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { validatePack } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, write, writePack } from './fixtures.test-util.js';

const codes = (v: ReturnType<typeof validatePack>) => v.findings.map((f) => `${f.severity}:${f.code}:${f.field ?? ''}`);

describe('validatePack', () => {
  it('passes a complete document-first pack', () => {
    const root = tmpDir();
    const dir = writePack(
      root,
      'acme-widget',
      baseFront('acme-widget', {
        type: 'brand-product',
        profile: 'document-first',
        grounding: 'recommended',
        trust: 'user-confirmed',
        updated: '2026-04-18',
        version: '1.10',
        runtime: { mode: 'data' },
        metadata: {
          primaryDocument: 'documents/brief.md',
          producedBy: { kind: 'agent-skill', name: 'builder', version: '1.0.0' },
        },
      }),
      {
        'documents/brief.md': '# Brief\n\n## Offline\n\nWorks offline.\n',
        'sources/one-pager.md': 'line1\nline2\n',
        'indexes/source-map.json': JSON.stringify({
          claims: [
            {
              claim_id: 'clm-1',
              text: 'Works offline',
              status: 'confirmed',
              source: { path: 'sources/one-pager.md', anchor: 'L2' },
              compiled_into: ['documents/brief.md'],
            },
          ],
        }),
        'evals/discovery.validation.json': JSON.stringify({
          pack_name: 'acme-widget',
          cases: [{ id: 'a', prompt: 'acme offline?', expected: 'select' }],
        }),
        'runs/compile-20260501T103000Z.json': JSON.stringify({
          run_id: 'c1',
          trigger: 'manual',
          status: 'passed',
          inputs: [{ path: 'sources/one-pager.md' }],
          outputs: [{ path: 'documents/brief.md', operation: 'created' }],
        }),
      },
    );
    const v = validatePack(dir);
    expect(codes(v)).toEqual([]);
    expect(v).toMatchObject({ ok: true, status: 'passed', name: 'acme-widget' });
    expect(v.manifest).toMatchObject({ version: '1.10', updated: '2026-04-18', trust: 'user-confirmed' });
  });

  it('reports every violation of scenario 17 at once, each naming file and field', () => {
    const root = tmpDir();
    const dir = writePack(root, 'bad', {
      name: 'Bad_Metadata',
      description: 'x'.repeat(1100),
      type: 'marketing stuff',
      status: 'published',
      trust: 'verified',
      grounding: 'strict',
      runtime: { mode: 'system' },
      compatibility: 'c'.repeat(600),
      colour: 'blue',
    });
    const v = validatePack(dir);
    expect(v.ok).toBe(false);
    expect(v.status).toBe('needs-review');
    expect(codes(v)).toEqual(
      expect.arrayContaining([
        'error:PACK_NAME_CASE:name',
        'error:PACK_DESCRIPTION_TOO_LONG:description',
        'error:PACK_TYPE_UNKNOWN:type',
        'error:PACK_STATUS_INVALID:status',
        'error:PACK_TRUST_INVALID:trust',
        'error:PACK_GROUNDING_INVALID:grounding',
        'error:PACK_COMPATIBILITY_TOO_LONG:compatibility',
        'warning:PACK_MODE_UNKNOWN:runtime.mode',
        'warning:PACK_UNEXPECTED_FIELD:colour',
      ]),
    );
    for (const f of v.findings) expect(f.file).toBe('KNOWLEDGE.md');
    expect(v.findings.find((f) => f.field === 'status')?.line).toBe(5);
    expect(v.findings.find((f) => f.field === 'status')?.message).toBe(
      "Invalid status 'published'. Expected one of: draft, ready, needs-review, stale, disputed, archived",
    );
  });

  it('accepts custom:<namespace> types, warns on a name/folder mismatch and a missing profile', () => {
    const root = tmpDir();
    const v = validatePack(
      writePack(root, 'sales-faq-v2', {
        name: 'sales-faq',
        description: 'Sales answers.',
        type: 'custom:acme-support',
        status: 'ready',
      }),
    );
    expect(v.ok).toBe(true);
    expect(codes(v)).toEqual(['warning:PACK_NAME_MISMATCH:name', 'warning:PACK_PROFILE_MISSING:profile']);
  });

  it('flags hyphen style and name charset problems', () => {
    const root = tmpDir();
    expect(codes(validatePack(writePack(root, 'a--b', baseFront('a--b'))))).toContain('warning:PACK_NAME_HYPHEN:name');
    expect(codes(validatePack(writePack(root, 'x', baseFront('a_b'))))).toContain('error:PACK_NAME_CHARS:name');
    expect(codes(validatePack(writePack(root, 'y', baseFront('n'.repeat(65)))))).toContain(
      'error:PACK_NAME_TOO_LONG:name',
    );
  });

  it('checks profile consistency', () => {
    const root = tmpDir();
    const doc = validatePack(writePack(root, 'doc', baseFront('doc', { profile: 'document-first' })));
    expect(doc.ok).toBe(true);
    expect(codes(doc)).toEqual([
      'warning:PACK_PROFILE_LAYOUT:profile',
      'warning:PACK_PROFILE_LAYOUT:metadata.primaryDocument',
    ]);
    const onto = validatePack(
      writePack(
        root,
        'onto',
        baseFront('onto', {
          type: 'content-ontology',
          metadata: { primaryOntology: 'ontology/ontology.json', primaryAnswers: 'answers/questions.json' },
        }),
      ),
    );
    expect(codes(onto)).toEqual(
      expect.arrayContaining([
        'error:PACK_PROFILE_LAYOUT:type',
        'error:PACK_MISSING_FILE:metadata.primaryOntology',
        'error:PACK_MISSING_FILE:metadata.primaryAnswers',
      ]),
    );
    const missing = validatePack(
      writePack(
        root,
        'm',
        baseFront('m', { profile: 'document-first', metadata: { primaryDocument: 'documents/none.md' } }),
        { 'documents/a.md': '# a\n' },
      ),
    );
    expect(codes(missing)).toEqual(['warning:PACK_MISSING_FILE:metadata.primaryDocument']);
  });

  it('rejects ../ and absolute metadata paths without reading them (scenario 57)', () => {
    const root = tmpDir();
    write(join(root, 'outside/secrets/credentials.md'), 'SECRET');
    const dir = writePack(
      root,
      'deep/a/b/c/esc',
      baseFront('esc', {
        profile: 'document-first',
        metadata: { primaryDocument: '../../../../outside/secrets/credentials.md', primaryOntology: '/etc/hostname' },
      }),
    );
    const v = validatePack(dir);
    expect(v.ok).toBe(false);
    const byField = Object.fromEntries(v.findings.map((f) => [f.field, f.message]));
    expect(byField['metadata.primaryDocument']).toMatch(/escapes the pack root/);
    expect(byField['metadata.primaryOntology']).toMatch(/absolute path not allowed/);
  });

  it('reports a symlinked file escaping the root and survives a symlink loop (scenario 58)', () => {
    const root = tmpDir();
    write(join(root, 'outside.md'), '# secret\n');
    const dir = writePack(root, 'p', baseFront('p'), { 'compiled/facts.md': '# Facts\n' });
    symlinkSync(join(root, 'outside.md'), join(dir, 'compiled/leak.md'));
    symlinkSync('..', join(dir, 'compiled/loop'));
    symlinkSync(join(dir, 'runs-loop'), join(dir, 'runs-loop'));
    const v = validatePack(dir);
    expect(v.ok).toBe(false);
    expect(v.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'PACK_SYMLINK_ESCAPE', file: 'compiled/leak.md' }),
        expect.objectContaining({ code: 'PACK_SYMLINK_BROKEN', file: 'runs-loop' }),
      ]),
    );
  });

  it('validates source maps, evals and runs against the standard schemas, naming file and field', () => {
    const root = tmpDir();
    const dir = writePack(root, 'j', baseFront('j'), {
      'compiled/facts.md': '# f\n',
      'indexes/source-map.json': JSON.stringify({
        claims: [
          { claim_id: 'clm-acme', text: 't', status: 'confirmed', source: { path: 'sources/gone.md' } },
          { claim_id: 'clm-out', text: 't', status: 'confirmed', source: { path: '../x.md' } },
        ],
      }),
      'evals/discovery.train.json': JSON.stringify({ pack_name: 'j', cases: [] }),
      'runs/context-1.json': '{ "run_id": ',
      'runs/sub/compile-2.json': JSON.stringify({
        run_id: 'c',
        trigger: 'nightly',
        status: 'passed',
        inputs: [],
        outputs: [],
        extra: 1,
      }),
      'runs/health-2026-05-01.json': JSON.stringify({ anything: true }),
    });
    const v = validatePack(dir);
    const msgs = v.findings.map((f) => `${f.severity} ${f.file} ${f.message}`);
    expect(msgs).toEqual(
      expect.arrayContaining([
        'error indexes/source-map.json Claim clm-acme points to missing source: sources/gone.md.',
        'error indexes/source-map.json Claim clm-out: path escapes the pack root: ../x.md',
        'error evals/discovery.train.json cases: Expected at least 1 items.',
        'error runs/sub/compile-2.json trigger: Expected one of: ingest, source-change, manual, scheduled, migration.',
        'warning runs/sub/compile-2.json extra: Unexpected field: extra.',
      ]),
    );
    expect(v.findings.find((f) => f.file === 'runs/context-1.json')).toMatchObject({
      severity: 'error',
      code: 'PACK_INVALID_JSON',
      line: 1,
    });
    expect(msgs.some((m) => m.includes('health'))).toBe(false);
  });

  it('fails a directory without KNOWLEDGE.md (lower-case entry named) and throws on bad paths', () => {
    const root = tmpDir();
    write(join(root, 'lower/knowledge.md'), '---\nname: lower\n---\n');
    const v = validatePack(join(root, 'lower'));
    expect(v).toMatchObject({ ok: false, status: 'failed' });
    expect(v.findings[0].message).toBe(
      'Missing required file: KNOWLEDGE.md (found knowledge.md; the name is case-sensitive)',
    );
    expect(() => validatePack(join(root, 'nope'))).toThrow(
      expect.objectContaining({ code: 'PACK_PATH_NOT_FOUND', exitCode: 2 }),
    );
    expect(() => validatePack(join(root, 'lower/knowledge.md'))).toThrow(
      expect.objectContaining({ code: 'PACK_NOT_DIRECTORY', exitCode: 2 }),
    );
  });

  it('accepts the KNOWLEDGE.md path itself', () => {
    const root = tmpDir();
    const dir = writePack(root, 'k', baseFront('k'), { 'compiled/facts.md': '# f\n' });
    expect(validatePack(join(dir, 'KNOWLEDGE.md'))).toMatchObject({ ok: true, pack: dir });
  });
});
