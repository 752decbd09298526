import { resolveContext } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { expandedTerms } from './expand.js';
import { baseFront, writePack, wsOptions } from './fixtures.test-util.js';
import { matchScore, termIndex } from './tokens.js';

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** A document-first pack about service conventions, split by topic, in `language`. */
function conventions(root: string, zh = false) {
  return writePack(
    root,
    'service-conventions',
    baseFront('service-conventions', {
      description: zh ? '服务开发约定：日志、指标与部署。' : 'Service conventions: logging, metrics and deployment.',
      profile: 'document-first',
      metadata: { primaryDocument: 'documents/conventions.md' },
    }),
    {
      'documents/conventions.md': '# Conventions\n\n## Logging\n\nUse pino.\n\n## Metrics\n\nUse prometheus.\n',
      'compiled/splits/conventions/logging.md': zh
        ? '# 日志\n\n所有服务使用 pino 输出结构化日志。\n'
        : '# Logging\n\nEvery service writes structured logs with pino.\n',
      'compiled/splits/conventions/metrics.md': zh
        ? '# 指标\n\n指标通过 prometheus 暴露。\n'
        : '# Metrics\n\nCounters are exposed for prometheus.\n',
    },
  );
}

describe('same meaning in other words (WordNet, CC-CEDICT)', () => {
  it('scores a missing term by its best alternative, below a literal hit', () => {
    const q = expandedTerms('how should we log');
    expect(matchScore(q, termIndex('log rotation'))).toBe(1);
    const viaInflection = matchScore(q, termIndex('structured logging'));
    expect(viaInflection).toBeGreaterThan(0);
    expect(viaInflection).toBeLessThan(1);
    expect(matchScore(q, termIndex('metrics only'))).toBe(0);
  });

  it('activates a pack and selects its split for a question worded differently ("how should we log")', () => {
    const root = tmpDir();
    conventions(root);
    const out = resolveContext({ ...wsOptions(root), query: 'How should we log errors?' }).output;
    expect(out.packs.map((p) => p.name)).toEqual(['service-conventions']);
    expect(out.packs[0].selected_splits).toEqual(['compiled/splits/conventions/logging.md']);
  });

  it('activates and selects across languages: an English question, a Chinese pack, and back', () => {
    const zhRoot = tmpDir();
    conventions(zhRoot, true);
    const en = resolveContext({ ...wsOptions(zhRoot), query: 'What is our log format?' }).output;
    expect(en.packs.map((p) => p.name)).toEqual(['service-conventions']);
    expect(en.packs[0].selected_splits).toEqual(['compiled/splits/conventions/logging.md']);

    const enRoot = tmpDir();
    conventions(enRoot);
    const zh = resolveContext({ ...wsOptions(enRoot), query: '日志应该怎么写？' }).output;
    expect(zh.packs.map((p) => p.name)).toEqual(['service-conventions']);
    expect(zh.packs[0].selected_splits).toEqual(['compiled/splits/conventions/logging.md']);
  });

  it('serves the boundaries beside a selected fact, whatever the question says', () => {
    const root = tmpDir();
    writePack(
      root,
      'acme-brief',
      baseFront('acme-brief', {
        description: 'Acme Widget product facts.',
        profile: 'document-first',
        metadata: { primaryDocument: 'documents/brief.md' },
      }),
      {
        'documents/brief.md': '# Brief\n\n## Offline\n\nWorks offline.\n',
        'compiled/splits/brief/offline.md': '# Offline\n\nAcme Widget keeps working offline and syncs later.\n',
        'compiled/splits/brief/boundaries.md':
          '# Boundaries\n\nNever promise a sync time. No medical or hospital claims.\n',
        'compiled/splits/brief/pricing.md': '# Pricing\n\nThree tiers.\n',
      },
    );
    const out = resolveContext({ ...wsOptions(root), query: 'Does it work offline?', guide: false }).output;
    expect(out.packs[0].selected_files).toEqual([
      'compiled/splits/brief/offline.md',
      'compiled/splits/brief/boundaries.md',
    ]);
    expect(out.context).toContain('Never promise a sync time');
    expect(out.context).not.toContain('Three tiers');

    // The same for a Chinese document's boundary section (边界) beside the selected section.
    const zh = tmpDir();
    writePack(
      zh,
      'acme-zh',
      baseFront('acme-zh', { description: 'Acme 产品事实。', profile: 'document-first', language: 'zh-CN' }),
      {
        'documents/brief.md':
          '# 简介\n\n## 离线\n\n支持离线使用。\n\n## 表达边界\n\n不得承诺同步时间。\n\n## 价格\n\n三档。\n',
      },
    );
    const zhOut = resolveContext({ ...wsOptions(zh), query: 'Acme 能离线使用吗', guide: false }).output;
    expect(zhOut.packs[0].selected_files).toEqual(['documents/brief.md#离线', 'documents/brief.md#表达边界']);
  });

  it('never selects a claim without the forbidden wording that limits it, beyond the per-kind caps', () => {
    const root = tmpDir();
    const claims = Array.from({ length: 12 }, (_, i) => ({
      id: `claim-sync-${i}`,
      text: `Sync detail ${i}.`,
      conceptIds: ['concept-sync'],
      evidenceStatus: 'verified',
    }));
    writePack(
      root,
      'acme-graph',
      baseFront('acme-graph', {
        type: 'content-ontology',
        description: 'Acme claims and constraints.',
        profile: 'hybrid',
        metadata: { primaryOntology: 'ontology/ontology.json' },
      }),
      {
        'ontology/ontology.json': json({ status: 'reviewed', files: ['concepts.json', 'claims.json'] }),
        'ontology/concepts.json': json([{ id: 'concept-sync', name: 'Offline sync' }]),
        'ontology/claims.json': json([
          ...claims,
          // Names the claim it limits, not the concept: found through the claim.
          {
            id: 'claim-sync-forbidden',
            text: 'Sync is instant.',
            limits: 'claim-sync-0',
            evidenceStatus: 'forbidden',
          },
          // Shares the concept, but sits past the cap of 8 claims per subgraph.
          {
            id: 'claim-sync-hospital',
            text: 'Certified for hospitals.',
            conceptIds: ['concept-sync'],
            evidenceStatus: 'forbidden',
          },
        ]),
      },
    );
    const out = resolveContext({ ...wsOptions(root), query: 'How does Acme offline sync work?', guide: false }).output;
    expect(out.context).toContain('claim claim-sync-0 [approved: verified]');
    expect(out.context).toMatch(/claim claim-sync-forbidden \[FORBIDDEN CLAIM/);
    expect(out.context).toMatch(/claim claim-sync-hospital \[FORBIDDEN CLAIM/);
  });
});
