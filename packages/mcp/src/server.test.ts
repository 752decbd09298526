import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { sessionTree, tmpDir, tmpProject } from '@maestro/test-utils';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createMaestroServer, INSTRUCTIONS } from './server.js';

const S = '20260102-mcp';
const R = '20260102-001-plan';
const SPEC =
  '<spec-entry category="arch" keywords="risk,limits" date="2026-01-01" sid="S-20260101-risk" title="RiskEngine position limits">\n\n' +
  '### RiskEngine position limits\n\nThe RiskEngine rejects an order whose position would exceed the max exposure limit.\n\n</spec-entry>\n';

async function connect(root: string) {
  const home = tmpDir('maestro-mcp-home-');
  const pack = join(home, '.agents', 'knowledge', 'acme-widget');
  mkdirSync(join(pack, 'documents'), { recursive: true });
  writeFileSync(
    join(pack, 'KNOWLEDGE.md'),
    '---\nname: acme-widget\ndescription: Facts about the Acme Widget, its pricing and offline mode.\ntype: domain-reference\nstatus: ready\nprofile: wiki-first\n---\n# Acme Widget\n\nUse this pack as data.\n',
  );
  writeFileSync(join(pack, 'documents', 'pricing.md'), '# Pricing\n\nThe Acme Widget costs 40 EUR a month.\n');
  const env = {
    layout: workflowLayout(root),
    runtime: fixedRuntime(new Date('2026-03-04T05:06:07.000Z')),
    scopes: {
      cwd: root,
      home,
      workspaceRoot: join(root, '.agents', 'knowledge'),
      userRoot: join(home, '.agents', 'knowledge'),
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: false,
      approve: [],
      packs: [],
      disable: [],
      gitignore: true,
    },
    skills: { workspace: join(root, '.agents', 'skills'), user: join(home, '.agents', 'skills') },
  };
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMaestroServer(env, '0.0.0-test').connect(a);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(b);
  return client;
}

function project() {
  return tmpProject({
    '.workflow/specs/architecture-constraints.md': SPEC,
    ...sessionTree({ sessionId: S, runs: [{ runId: R, status: 'running' }] }),
  });
}

const text = (r: { content?: unknown }) => (r.content as { type: string; text: string }[])[0].text;

describe('maestro MCP server (in-process)', () => {
  it('lists exactly the ten tools, none of which resolves, promotes or prunes, and states the contract', async () => {
    const client = await connect(project());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'knowledge_search',
      'knowledge_load',
      'knowledge_context',
      'knowledge_stage',
      'knowledge_record',
      'knowledge_review',
      'pack_catalog',
      'pack_resolve',
      'skill_list',
      'skill_load',
    ]);
    expect(tools.some((t) => /resolve_candidate|promote|prune/.test(t.name))).toBe(false);
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly).toEqual([
      'knowledge_search',
      'knowledge_context',
      'knowledge_review',
      'pack_catalog',
      'pack_resolve',
      'skill_list',
      'skill_load',
    ]);
    for (const t of tools) expect(t.outputSchema).toBeDefined();
    expect(client.getInstructions()).toBe(INSTRUCTIONS);
    expect(INSTRUCTIONS.split('\n')).toHaveLength(3);
  });

  it('calls every tool with structured content and a short text', async () => {
    const root = project();
    const client = await connect(root);
    const found = await client.callTool({ name: 'knowledge_search', arguments: { query: 'position limits' } });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { results: { id: string }[] }).results[0].id).toBe('S-20260101-risk');
    expect(text(found)).toContain('S-20260101-risk RiskEngine position limits');

    const ctx = await client.callTool({
      name: 'knowledge_context',
      arguments: { prompt: 'How does the RiskEngine enforce position limits on an order?' },
    });
    expect((ctx.structuredContent as { specs: { id: string }[] }).specs.map((s) => s.id)).toEqual(['S-20260101-risk']);
    expect(text(ctx)).toContain('<recalled-knowledge');
    const none = await client.callTool({ name: 'knowledge_context', arguments: { prompt: 'hello there' } });
    expect((none.structuredContent as { context: string }).context).toBe('');

    const loaded = await client.callTool({
      name: 'knowledge_load',
      arguments: { ids: ['S-20260101-risk'], session: S, run: R },
    });
    expect(loaded.structuredContent).toMatchObject({ recorded: { count: 1, session_id: S, run_id: R } });

    const staged = await client.callTool({
      name: 'knowledge_stage',
      arguments: {
        session: S,
        run: R,
        target: 'spec',
        title: 'Limit checks run before routing',
        content: 'Run the RiskEngine limit check before the OrderRouter builds the order.',
        action: 'propose',
        category: 'arch',
        signal: 'validated',
        signal_ids: ['S-20260101-risk'],
      },
    });
    expect(staged.isError).toBeFalsy();
    expect(staged.structuredContent).toMatchObject({ session_id: S, run_id: R, signal_recorded: 1 });
    expect(text(staged)).toContain('a person reviews it');

    const recorded = await client.callTool({
      name: 'knowledge_record',
      arguments: { session: S, run: R, ids: ['S-20260101-risk'], signal: 'cited' },
    });
    expect(recorded.structuredContent).toMatchObject({ recorded: 1, signal: 'cited' });

    const review = await client.callTool({ name: 'knowledge_review', arguments: { session: S } });
    expect(review.isError).toBeFalsy();
    expect((review.structuredContent as { candidates: { title: string }[] }).candidates.map((c) => c.title)).toEqual([
      'Limit checks run before routing',
    ]);

    const catalog = await client.callTool({ name: 'pack_catalog', arguments: {} });
    expect((catalog.structuredContent as { packs: { name: string }[] }).packs.map((p) => p.name)).toEqual([
      'acme-widget',
    ]);
    expect(text(catalog)).toContain('<available_knowledge_packs');
    const resolved = await client.callTool({
      name: 'pack_resolve',
      arguments: { query: 'What does the Acme Widget cost?', packs: ['acme-widget'] },
    });
    expect((resolved.structuredContent as { packs: { name: string }[] }).packs.map((p) => p.name)).toEqual([
      'acme-widget',
    ]);
    expect(text(resolved)).toContain('<knowledge_pack name="acme-widget"');
  });

  it('answers bad arguments and refused rules as tool errors the model can correct', async () => {
    const client = await connect(project());
    const bad = await client.callTool({ name: 'knowledge_stage', arguments: { session: S, target: 'rule' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/target|run|title/);
    const unknownRun = await client.callTool({
      name: 'knowledge_stage',
      arguments: { session: S, run: '20260102-009-nope', target: 'spec', title: 't', content: 'c' },
    });
    expect(unknownRun.isError).toBe(true);
    expect(text(unknownRun)).toMatch(/^[A-Z_]+: .*20260102-009-nope[\s\S]*\nfix: /);
    const unknownId = await client.callTool({ name: 'knowledge_load', arguments: { ids: ['S-20990101-none'] } });
    expect(unknownId.isError).toBe(true);
    expect(text(unknownId)).toContain('S-20990101-none');
    const empty = await client.callTool({ name: 'knowledge_search', arguments: { query: '' } });
    expect(empty.isError).toBe(true);
  });

  it('reports a damaged ledger as a tool error naming the file and the fix', async () => {
    const root = project();
    writeFileSync(join(root, `.workflow/sessions/${S}/runs/${R}/knowledge-delta.json`), '{ "schema_version": ');
    const client = await connect(root);
    const review = await client.callTool({ name: 'knowledge_review', arguments: { session: S } });
    expect(review.isError).toBe(true);
    expect(text(review)).toContain('knowledge-delta.json');
    expect(text(review)).toContain('fix: ');
    const staged = await client.callTool({
      name: 'knowledge_stage',
      arguments: { session: S, run: R, target: 'spec', title: 't', content: 'c' },
    });
    expect(staged.isError).toBe(true);
    expect(text(staged)).toContain('knowledge-delta.json');
  });
  it('lists skills and loads one as a skill, never inside a knowledge wrapper; an unknown one is a tool error', async () => {
    const root = project();
    const dir = join(root, '.agents', 'skills', 'deploy-preview');
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      '---\nname: deploy-preview\ndescription: Deploy a preview for a pull request.\n---\n# Steps\n\n1. Run scripts/deploy.sh.\n',
    );
    writeFileSync(join(dir, 'scripts', 'deploy.sh'), '#!/bin/sh\necho deploy\n');
    const client = await connect(root);
    const list = await client.callTool({ name: 'skill_list', arguments: {} });
    expect(text(list)).toContain('deploy-preview: Deploy a preview for a pull request.');
    const loaded = await client.callTool({ name: 'skill_load', arguments: { name: 'deploy-preview' } });
    expect(text(loaded)).toMatch(/^<skill_content name="deploy-preview"/);
    expect(text(loaded)).toContain('<file kind="script">scripts/deploy.sh</file>');
    expect(text(loaded)).not.toContain('knowledge');
    const unknown = await client.callTool({ name: 'skill_load', arguments: { name: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('SKILL_UNKNOWN');
  });
});
