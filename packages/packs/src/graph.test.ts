import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countClosingTags, resolveContext, validatePack } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, writePack, wsOptions } from './fixtures.test-util.js';

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** The standard's ontology-aware example, with one forbidden and one unverified claim. */
function ontologyPack(root: string, extra: Record<string, string> = {}, front: Record<string, unknown> = {}) {
  const sentinel = join(root, 'ACTION-RAN');
  return writePack(
    root,
    'acme-content-ontology',
    baseFront('acme-content-ontology', {
      type: 'content-ontology',
      description: 'Product claims, evidence and content constraints for Acme Widget.',
      profile: 'hybrid',
      grounding: 'required',
      metadata: { primaryDocument: 'documents/product-brief.md', primaryOntology: 'ontology/ontology.json' },
      ...front,
    }),
    {
      'documents/product-brief.md':
        '# Product brief\n\n## Offline queue\n\nField teams keep working offline; edits sync later.\n\n## Pricing\n\nThree tiers.\n',
      'ontology/ontology.json': json({
        id: 'acme-graph',
        status: 'reviewed',
        files: [
          'concepts.json',
          'claims.json',
          'evidence.json',
          'constraints.json',
          'relations.json',
          'coverage.json',
          'action-types.json',
        ],
      }),
      'ontology/concepts.json': json({
        concepts: [
          { id: 'concept-offline-queue', name: 'Offline queue', definition: 'Edits are stored locally and synced.' },
          { id: 'concept-pricing', name: 'Pricing tiers', definition: 'Three paid tiers.' },
          ...Array.from({ length: 300 }, (_, i) => ({
            id: `concept-filler-${i}`,
            name: `Filler topic ${i}`,
            definition: 'Unrelated.',
          })),
        ],
      }),
      'ontology/claims.json': json([
        {
          id: 'claim-offline-sync',
          text: 'Edits made offline sync within 30 seconds of reconnecting.',
          conceptIds: ['concept-offline-queue'],
          evidenceIds: ['ev-one-pager'],
          evidenceStatus: 'verified',
          reviewStatus: 'approved',
        },
        {
          id: 'claim-offline-medical',
          text: 'Offline mode is certified for hospital use.',
          conceptIds: ['concept-offline-queue'],
          evidenceStatus: 'forbidden',
        },
        {
          id: 'claim-offline-battery',
          text: 'Offline mode doubles battery life.',
          conceptIds: ['concept-offline-queue'],
          evidenceStatus: 'needs-verification',
        },
        {
          id: 'claim-pricing',
          text: 'Pricing starts at 10 dollars.',
          conceptIds: ['concept-pricing'],
          evidenceStatus: 'verified',
        },
      ]),
      'ontology/evidence.json': json([
        {
          id: 'ev-one-pager',
          claimId: 'claim-offline-sync',
          sourceRef: 'sources/product-one-pager.md#L12',
          excerpt: 'Sync completes within 30 seconds.',
        },
      ]),
      'ontology/constraints.json': json([
        {
          id: 'forbidden-medical-claim',
          rule: 'Never claim medical or hospital certification.',
          appliesTo: ['concept-offline-queue', 'claim-offline-medical'],
        },
        { id: 'pricing-rule', rule: 'Quote prices only from the price list.', appliesTo: ['concept-pricing'] },
      ]),
      'ontology/relations.json': json([
        { id: 'rel-1', from: 'concept-offline-queue', type: 'supports', to: 'concept-pricing', status: 'candidate' },
      ]),
      'ontology/coverage.json': json([
        { id: 'cov-offline-buyers', concept: 'concept-offline-queue', audience: 'field buyers', state: 'ready' },
      ]),
      'ontology/action-types.json': json([
        {
          id: 'publish-offline-post',
          name: 'Publish offline post',
          command: `touch ${sentinel}`,
          run: `sh -c "touch ${sentinel}"`,
          requiredEvidenceStrength: 'verified',
        },
      ]),
      ...extra,
    },
    '# Acme content ontology\n\n## Context map\n\n- `documents/product-brief.md` for product facts\n\n## Boundaries\n\n- Never state forbidden claims.\n',
  );
}

describe('ontology subgraph selection', () => {
  it('selects a document section plus a bounded subgraph: concept, approved claim, evidence, constraints (scenario 45)', () => {
    const root = tmpDir();
    ontologyPack(root);
    const out = resolveContext({
      ...wsOptions(root),
      query: 'Write evidence-backed marketing copy about the Acme Widget offline queue',
    }).output;
    const p = out.packs[0];
    expect(p.selected_files).toContain('ontology/concepts.json#concept-offline-queue');
    expect(p.selected_files).toContain('documents/product-brief.md#offline-queue');
    const ctx = out.context;
    expect(ctx).toContain('concept concept-offline-queue');
    expect(ctx).toContain('claim claim-offline-sync [approved: verified]');
    expect(ctx).toContain('evidence ev-one-pager');
    expect(ctx).toContain('constraint forbidden-medical-claim');
    expect(ctx).toContain('coverage cov-offline-buyers');
    expect(ctx).toContain('relation rel-1 [candidate relation: unreviewed]');
    // Never the whole graph: unrelated concepts, their claims and constraints stay out.
    expect(ctx).not.toContain('concept-filler-');
    expect(ctx).not.toContain('claim-pricing');
    expect(ctx).not.toContain('pricing-rule');
    expect(ctx).not.toContain('## Pricing');
    expect(countClosingTags(ctx)).toBe(1);
  });

  it('shows forbidden and unverified claims only as constraints or with warnings, never as approved facts (scenario 46)', () => {
    const root = tmpDir();
    ontologyPack(root);
    const out = resolveContext({
      ...wsOptions(root),
      query: 'What can we claim about the Acme Widget offline queue?',
    }).output;
    const ctx = out.context;
    expect(ctx).toMatch(/claim claim-offline-medical \[FORBIDDEN CLAIM: a constraint; never state it\]/);
    expect(ctx).toMatch(
      /claim claim-offline-battery \[NOT APPROVED \(evidence needs-verification\): do not state it as fact\]/,
    );
    expect(ctx).not.toMatch(/claim-offline-medical \[approved/);
    expect(ctx).not.toMatch(/claim-offline-battery \[approved/);
    const warnings = out.packs[0].warnings;
    expect(warnings).toContain(
      'claim claim-offline-medical is forbidden: it is listed only as a constraint; never state it',
    );
    expect(warnings.some((w) => w.startsWith('claim claim-offline-battery is not an approved fact'))).toBe(true);
  });

  it('treats action types as declarative data and executes nothing (scenario 47)', () => {
    const root = tmpDir();
    ontologyPack(root);
    const out = resolveContext({
      ...wsOptions(root),
      query: 'Publish the offline post action',
      budget: 4000,
      packs: ['acme-content-ontology'],
    }).output;
    expect(out.context).toContain('[declarative action type: data, never executed]');
    expect(out.context).toContain('command: touch');
    expect(existsSync(join(root, 'ACTION-RAN'))).toBe(false);
  });

  it('offers a document-first pack its ontology only when the request is about claims, or nothing else matched', () => {
    const root = tmpDir();
    ontologyPack(root, {}, { type: 'brand-product', profile: 'document-first' });
    const plain = resolveContext({ ...wsOptions(root), query: 'How does the Acme Widget offline queue work?' }).output;
    expect(plain.packs[0].selected_files).toEqual(['documents/product-brief.md#offline-queue']);
    const claims = resolveContext({
      ...wsOptions(root),
      query: 'Which Acme Widget offline queue claims are approved?',
    }).output;
    expect(claims.packs[0].selected_files).toContain('ontology/concepts.json#concept-offline-queue');
  });

  it('keeps the subgraph within the budget: the core when the whole neighbourhood does not fit', () => {
    const root = tmpDir();
    ontologyPack(root, {
      'ontology/evidence.json': json(
        Array.from({ length: 6 }, (_, i) => ({
          id: `ev-${i}`,
          claimId: 'claim-offline-sync',
          excerpt: 'long evidence text '.repeat(60),
        })),
      ),
    });
    const out = resolveContext({
      ...wsOptions(root),
      query: 'Acme Widget offline queue claims',
      budget: 900,
      guide: false,
    }).output;
    expect(out.token_estimate).toBeLessThanOrEqual(900);
    expect(out.packs[0].selected_files).toContain('ontology/concepts.json#concept-offline-queue');
    expect(out.context).toContain('claim claim-offline-sync');
    expect(out.context).not.toContain('long evidence text');
  });

  it('warns about an unreviewed manifest, bad JSON and paths outside the pack, and reads none of them', () => {
    const root = tmpDir();
    const outside = tmpDir();
    writePack(outside, 'x', baseFront('x'), {
      'secret.json': json([{ id: 'concept-offline-secret', name: 'offline SECRET' }]),
    });
    ontologyPack(root, {
      'ontology/ontology.json': json({
        status: 'draft',
        files: [
          'concepts.json',
          'claims.json',
          `../../../${outside.split('/').pop()}/x/secret.json`,
          '/etc/hostname.json',
        ],
      }),
      'ontology/claims.json': '{ not json',
    });
    const out = resolveContext({ ...wsOptions(root), query: 'Acme Widget offline queue' }).output;
    const w = out.packs[0].warnings;
    expect(w).toContain('ontology manifest status is draft: treat this subgraph as unreviewed');
    expect(w).toContain('ontology/claims.json is not valid JSON; not used (run `maestro pack validate`)');
    expect(w.some((x) => x.includes('path escapes the pack root'))).toBe(true);
    expect(w.some((x) => x.includes('absolute path not allowed'))).toBe(true);
    expect(out.context).not.toContain('SECRET');
  });
});

describe('answer subgraph selection', () => {
  function answerPack(root: string) {
    return writePack(
      root,
      'acme-answer-knowledge',
      baseFront('acme-answer-knowledge', {
        type: 'brand-product',
        description: 'Question maps, answer blocks and citation targets for Acme Widget.',
        profile: 'hybrid',
        metadata: { primaryDocument: 'documents/product-guide.md', primaryAnswers: 'answers/questions.json' },
      }),
      {
        'documents/product-guide.md': '# Guide\n\n## Install\n\nRun the installer.\n',
        'answers/questions.json': json([
          {
            id: 'q-acme-offline-use',
            question: 'Can Acme Widget work offline?',
            variants: ['Does Acme Widget support offline mode?'],
            intent: 'product-capability',
            answerBlockIds: ['answer-acme-offline-use'],
            status: 'ready',
          },
          { id: 'q-acme-price', question: 'How much does Acme Widget cost?', answerBlockIds: ['answer-acme-price'] },
        ]),
        'answers/answer-blocks.json': json([
          {
            id: 'answer-acme-offline-use',
            format: 'direct-answer',
            answer: 'Acme Widget supports offline queueing for field teams.',
            claimIds: ['claim-offline-queueing'],
            citationTargetIds: ['cite-product-guide-offline'],
            evidenceStatus: 'verified',
            reviewStatus: 'approved',
            lastReviewed: '2026-05-28',
          },
          { id: 'answer-acme-price', answer: 'PRICE-ANSWER', evidenceStatus: 'verified', reviewStatus: 'pending' },
        ]),
        'answers/citation-targets.json': json([
          {
            id: 'cite-product-guide-offline',
            sourceRef: 'documents/product-guide.md#offline',
            heading: 'Offline mode',
            targetKind: 'section',
          },
        ]),
        'answers/monitoring-runs.json': json([
          {
            id: 'mon-1',
            questionId: 'q-acme-offline-use',
            answerPresence: 'mentioned',
            observedAt: '2026-04-01',
            notes: 'OLD-RUN',
          },
          {
            id: 'mon-3',
            questionId: 'q-acme-offline-use',
            answerPresence: 'cited',
            observedAt: '2026-06-01',
            notes: 'LATEST-RUN',
          },
          {
            id: 'mon-2',
            questionId: 'q-acme-offline-use',
            answerPresence: 'absent',
            observedAt: '2026-05-01',
            notes: 'MIDDLE-RUN',
          },
        ]),
      },
    );
  }

  it('loads question → answer block → citation target, and only the latest monitoring run', () => {
    const root = tmpDir();
    answerPack(root);
    const out = resolveContext({ ...wsOptions(root), query: 'Can Acme Widget work offline?' }).output;
    const p = out.packs[0];
    expect(p.selected_files[0]).toBe('answers/questions.json#q-acme-offline-use');
    expect(out.context).toContain('answer-block answer-acme-offline-use [approved: verified]');
    expect(out.context).toContain('citation-target cite-product-guide-offline');
    expect(out.context).toContain('LATEST-RUN');
    expect(out.context).not.toMatch(/OLD-RUN|MIDDLE-RUN|PRICE-ANSWER/);
  });

  it('marks an answer whose review is pending as not approved', () => {
    const root = tmpDir();
    answerPack(root);
    const out = resolveContext({ ...wsOptions(root), query: 'How much does Acme Widget cost?' }).output;
    expect(out.context).toContain('answer-block answer-acme-price [NOT APPROVED (review pending)');
    expect(
      out.packs[0].warnings.some((w) => w.startsWith('answer-block answer-acme-price is not an approved fact')),
    ).toBe(true);
  });
});

describe('validating the structured layers', () => {
  it('reports invalid layer JSON and manifest files outside the pack, like the reference CLI (plus containment)', () => {
    const root = tmpDir();
    const pack = ontologyPack(root, {
      'ontology/ontology.json': json({
        status: 'reviewed',
        files: ['concepts.json', '../../escape.json', '/etc/x.json', 'gone.json'],
      }),
      'ontology/claims.json': '{ "claims": [',
      'ontology/exports/graph.json': 'not json, but an interchange artifact: not checked',
      'answers/questions.json': '[{"id": "q"}',
    });
    const v = validatePack(pack);
    const got = v.findings.map((f) => `${f.severity} ${f.file} ${f.code}${f.field ? ` ${f.field}` : ''}`);
    expect(got).toEqual(
      expect.arrayContaining([
        'error ontology/claims.json PACK_INVALID_JSON',
        'error answers/questions.json PACK_INVALID_JSON',
        'error ontology/ontology.json PACK_PATH_OUTSIDE files[1]',
        'error ontology/ontology.json PACK_PATH_OUTSIDE files[2]',
        'warning ontology/ontology.json PACK_MISSING_FILE files[3]',
      ]),
    );
    expect(got.some((g) => g.includes('exports'))).toBe(false);
    expect(validatePack(ontologyPack(tmpDir())).ok).toBe(true);
  });
});
