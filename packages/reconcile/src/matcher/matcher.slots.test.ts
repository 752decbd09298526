import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze.js';
import { numericMismatch, statedElsewhere } from './compare.js';
import { entry, judge } from './matcher.fixture.js';
import { orderSlot } from './order.js';
import { roleSlot } from './role.js';
import { SLOT_PREFIX, slotDifference } from './slots.js';
import type { Match } from './types.js';
import { DEFAULT_POLICY, decideVerdict, type VerdictPolicy, WEAK_EVIDENCE } from './verdict.js';

// The general rules of maestro-match/2.2 (docs/reconcile.md, "Decision policy"): the order and
// role slots, values compared against the clause that speaks of the same subject, a weak match with
// a named slot at its own floor, and declared actions that name a target of their own store. Texts
// written for these tests, in English and Chinese.

const f = analyzeText;

describe('the order slot', () => {
  it('names two steps put in opposite orders (English)', () => {
    const entryText = 'Drain the node before upgrading the kernel, and note the upgrade in the change log.';
    const reversed = 'Upgrade the kernel first, then drain the node once the new kernel has booted.';
    expect(orderSlot(f(reversed), f(entryText))).toMatch(/^different order: .+ before .+ vs .+ before .+$/);
    // "After Y, X" opens with what happens first.
    expect(orderSlot(f('After draining the node, upgrade the kernel.'), f(entryText))).toBeNull();
    expect(orderSlot(f('After upgrading the kernel, drain the node.'), f(entryText))).not.toBeNull();
  });

  it('names two steps put in opposite orders (Chinese)', () => {
    const entryText = '升级内核之前必须先摘除节点的流量。';
    expect(orderSlot(f('先升级内核，确认启动正常之后再摘除节点的流量。'), f(entryText))).toMatch(/^different order:/);
    expect(orderSlot(f('先摘除节点的流量，然后升级内核。'), f(entryText))).toBeNull();
  });

  it('is silent on texts that put nothing in sequence', () => {
    expect(orderSlot(f('Kernel upgrades are announced a week ahead.'), f('Drain the node before the upgrade.'))).toBe(
      null,
    );
  });

  it('a restatement in the other order is a possible conflict, with the order as its evidence', () => {
    const corpus = [
      entry(
        'S-ORD',
        'Snapshot before expanding',
        'Take a snapshot of the volume before expanding it, and keep the snapshot for a week.',
      ),
    ];
    const v = judge('Expand the volume first, then take a snapshot of it and keep the snapshot for a week.', corpus);
    expect(v.disposition).toBe('potential_conflict');
    expect(v.canonical_id).toBe('S-ORD');
    expect(v.matches[0].evidence.some((e) => e.startsWith('different order:'))).toBe(true);
  });
});

describe('the role slot', () => {
  it('names another approver for the same approval (English)', () => {
    const rule = 'A firewall rule change needs an approval from the network security group before it is applied.';
    expect(roleSlot(f('Firewall rule changes are approved by the on-call engineer.'), f(rule))).toMatch(
      /^different approver: .*on-call.* vs .*network.*/,
    );
    // The same approver, or one named inside the other, agrees.
    expect(roleSlot(f('Firewall rule changes are approved by the network security group.'), f(rule))).toBeNull();
  });

  it('names another approver for the same approval (Chinese)', () => {
    const rule = '防火墙规则的变更必须在生效前取得网络安全组的批准。';
    expect(roleSlot(f('防火墙规则的变更由值班工程师批准即可生效。'), f(rule))).toMatch(/^different approver:/);
    expect(roleSlot(f('防火墙规则的变更由网络安全组批准。'), f(rule))).toBeNull();
  });

  it('needs the two approvals to be about the same thing', () => {
    const rule = 'Every firewall rule change needs an approval from the network security group.';
    expect(roleSlot(f('Conference travel is approved by the line manager.'), f(rule))).toBeNull();
  });

  it('a related candidate that names another approver goes to review as a possible conflict', () => {
    const corpus = [
      entry(
        'S-ROLE',
        'Firewall changes',
        'A firewall rule change needs an approval from the network security group before it is applied.',
      ),
    ];
    const v = judge('Firewall rule changes are approved by the on-call engineer of the week.', corpus);
    expect(v.promotion_eligibility).toBe('review_required');
    expect(v.canonical_id).toBe('S-ROLE');
  });
});

describe('values compared against the clause about the same subject', () => {
  const text = (t: string) => f(t).clauses;
  it('a value the other text states of the same subject is no different value (English)', () => {
    const a = text('Lint jobs time out after 120000 ms; build jobs time out after 10 minutes.');
    const b = text('Lint jobs time out after 2 minutes; build jobs time out after 600 seconds.');
    // Clause by clause the build clause of one meets the lint clause of the other: the values agree
    // with the clause that speaks of the same jobs.
    for (const x of a)
      for (const y of b) expect(numericMismatch(x.numbers, y.numbers, statedElsewhere(x, y, a, b))).toBeNull();
  });

  it('a value the other text states of the same subject is no different value (Chinese)', () => {
    const a = text('单元测试每个用例 5000 毫秒超时；端到端测试每个用例 3 分钟超时。');
    const b = text('单元测试单个用例超时 5 秒；端到端测试单个用例超时 180 秒。');
    for (const x of a)
      for (const y of b) expect(numericMismatch(x.numbers, y.numbers, statedElsewhere(x, y, a, b))).toBeNull();
  });

  it('a changed value still differs', () => {
    const a = text('Lint jobs time out after 5 minutes.');
    const b = text('Lint jobs time out after 2 minutes; build jobs time out after 600 seconds.');
    expect(numericMismatch(a[0].numbers, b[0].numbers, statedElsewhere(a[0], b[0], a, b))).toMatch(/5 minutes vs 2/);
  });
});

describe('a value set for another named thing', () => {
  it('is the same setting of a different thing, not another value (English)', () => {
    const rule = f('Session entries are cached in Redis under `session-store` with a TTL of 15 minutes.');
    const other = f('Cart entries are cached in Redis under `basket-store` with a TTL of 2 hours.');
    // Not a value difference (a name in the same place may still be named as another choice).
    expect(slotDifference(other, rule) ?? '').not.toMatch(/different values/);
    const same = f('Session entries are cached in Redis under `session-store` with a TTL of 2 hours.');
    expect(slotDifference(same, rule)).toMatch(/different values: 2 hours vs 15 minutes/);
  });

  it('is the same setting of a different thing, not another value (Chinese)', () => {
    const rule = f('`report-worker` 消费者的单批记录数上限为 200 条。');
    const other = f('`audit-sink` 消费者的单批记录数上限为 50 条。');
    // Not a value difference (a name in the same place may still be named as another choice).
    expect(slotDifference(other, rule) ?? '').not.toMatch(/different values/);
    const same = f('`report-worker` 消费者的单批记录数上限为 50 条。');
    expect(slotDifference(same, rule)).toMatch(/^different values:/);
  });
});

const match = (id: string, composite: number, evidence: string[], target: 'spec' | 'knowhow' = 'spec'): Match => ({
  knowledge_id: id,
  target,
  title: id,
  relation: 'related',
  scores: { lexical: composite, semantic: composite, title: 0, relation: 0, stance: 0.5, composite },
  novelty: 0.5,
  evidence,
  target_content_hash: '',
  source_path: 'specs/x.md',
  source_line: 1,
});

describe('the order of matches in the decision', () => {
  const policy: VerdictPolicy = { ...DEFAULT_POLICY, weak: 0.1, weakSlot: 1, uncertain: 1, uncertainCross: 1 };

  it('a weak match with a named slot difference decides only from its own floor', () => {
    const weak = match('S-BAN', 0.12, [WEAK_EVIDENCE, `${SLOT_PREFIX}uses what the entry forbids: left-pad`]);
    const topical = match('S-TOP', 0.3, ['concept coverage: candidate 0.500, entry 0.400']);
    expect(decideVerdict('spec', 'propose', [weak, topical], policy).disposition).toBe('related');
    const d = decideVerdict('spec', 'propose', [weak, topical], { ...policy, weakSlot: 0.1 });
    expect(d.disposition).toBe('potential_conflict');
    expect(d.canonical?.knowledge_id).toBe('S-BAN');
  });

  it('a contest names an entry of its own store before another store’s', () => {
    const knowhow = match('knowhow-tip', 0.4, ['different knowledge store (spec vs knowhow)'], 'knowhow');
    const topical = match('S-TOP', 0.2, ['concept coverage: candidate 0.500, entry 0.400']);
    const d = decideVerdict('spec', 'contest', [knowhow, topical], policy);
    expect(d.disposition).toBe('potential_conflict');
    expect(d.canonical?.knowledge_id).toBe('S-TOP');
    // Nothing of its own store: the other store's entry is the target.
    expect(decideVerdict('spec', 'supersede', [knowhow], policy).canonical?.knowledge_id).toBe('knowhow-tip');
  });
});
