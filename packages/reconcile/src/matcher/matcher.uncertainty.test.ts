import { describe, expect, it } from 'vitest';
import { analyzeText, nameWords } from './analyze.js';
import { entry, judge } from './matcher.fixture.js';
import { languageOf } from './score.js';
import { forbiddenName } from './slots.js';
import type { Match } from './types.js';
import {
  CROSS_LANGUAGE_PREFIX,
  DEFAULT_POLICY,
  DISTINCTIVE_MASS_PREFIX,
  DISTINCTIVE_PREFIX,
  decideVerdict,
  type VerdictPolicy,
  verdictFor,
  WEAK_EVIDENCE,
} from './verdict.js';

// The rules of maestro-match/2.1 that make `eligible` need positive evidence (docs/reconcile.md,
// "Decision policy"): weak matches, the language of a pair, the uncertainty rule. Each rule is
// tested with its numbers stated here (the shipped numbers are fitted: see DEFAULT_POLICY), in
// English and Chinese, with texts written for these tests.

/** Every rule of 2.1 switched off, the rest as shipped: the rule under test is switched on by each test. */
const OFF: VerdictPolicy = {
  ...DEFAULT_POLICY,
  uncertain: 1,
  uncertainCross: 1,
  uncertainDistinctive: 0,
  uncertainMass: 0,
  weak: 1,
  actionTarget: 0,
};

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

describe('the language of a text', () => {
  it('is Chinese when Chinese characters carry the text, even with English names in it', () => {
    expect(languageOf('Retry the upload twice before giving up.')).toBe('en');
    expect(languageOf('上传失败时先用 exponential backoff 重试两次，再放弃。')).toBe('zh');
    // An English rule that quotes one Chinese word is still English.
    expect(languageOf('Label the button "保存" in the Chinese locale and keep the English label elsewhere.')).toBe(
      'en',
    );
  });

  it('a pair written in two languages says so in its evidence', () => {
    const corpus = [entry('S-1', '上传重试', '上传失败时最多重试三次，每次间隔加倍。')];
    const v = judge('When an upload fails, retry it at most three times, doubling the wait each time.', corpus);
    const m = v.matches.find((x) => x.knowledge_id === 'S-1');
    expect(m?.evidence).toContain(`${CROSS_LANGUAGE_PREFIX}en vs zh`);
    const same = judge('上传失败后最多重试三次。', corpus);
    expect(same.matches[0]?.evidence.some((e) => e.startsWith(CROSS_LANGUAGE_PREFIX))).toBe(false);
  });
});

describe('a weak match (retrieved, not topical by the clause rules) is weighed by the policy', () => {
  const weak = (id: string, composite: number) => match(id, composite, [WEAK_EVIDENCE]);

  it('below the weak floor it takes no part and is not listed; above it, it is a related match', () => {
    const ms = [weak('S-2', 0.15)];
    const c = { candidate_id: 'KDC-1', target: 'spec' as const, title: 't', content: 't' };
    const off = verdictFor(c, 'propose', ms, '1970-01-01T00:00:00.000Z', { ...OFF, weak: 0.2 });
    expect(off.disposition).toBe('unique');
    expect(off.matches).toEqual([]);
    const on = verdictFor(c, 'propose', ms, '1970-01-01T00:00:00.000Z', { ...OFF, weak: 0.1 });
    expect(on.disposition).toBe('related');
    expect(on.canonical_id).toBe('S-2');
  });

  it('a shared sentence pattern (one word and generic ones) is not even a weak match', () => {
    const corpus = [
      entry(
        'S-17',
        'quorvex zentrafil mobrisk',
        'Every quorvex keeps its zentrafil beside the mobrisk; plantovi drasquel mirrent.',
      ),
    ];
    const v = judge(
      'Every plidomar keeps its vextrunel beside the harquine; soltravin bexquor nimbrel.',
      corpus,
      {},
      {
        policy: { ...OFF, weak: 0 },
      },
    );
    expect(v.matches).toEqual([]);
    expect(v.disposition).toBe('unique');
  });

  it('a contest or supersede names its best target among weak matches too', () => {
    const d = decideVerdict('spec', 'contest', [weak('S-3', 0.18), weak('S-4', 0.12)], { ...OFF, weak: 1 });
    expect(d.disposition).toBe('potential_conflict');
    expect(d.canonical?.knowledge_id).toBe('S-3');
    // Unless even the best is below the composite an action needs: then none was found.
    const none = decideVerdict('spec', 'supersede', [weak('S-3', 0.18)], { ...OFF, actionTarget: 0.2 });
    expect(none.disposition).toBe('unique');
    expect(none.canonical).toBeNull();
  });

  it('end to end: an entry on the same subject in other words is listed as weak (EN, ZH)', () => {
    const en = [
      entry('S-5', 'Invoice numbering', 'Invoices carry a gapless sequence number per legal entity.'),
      entry('S-6', 'Office plants', 'The office plants are watered on Mondays by whoever opens the office.'),
    ];
    const v = judge(
      'Every legal entity keeps its own run of invoice numbers without holes.',
      en,
      {},
      {
        policy: { ...OFF, weak: 0 },
      },
    );
    expect(v.canonical_id).toBe('S-5');
    const zh = [
      entry('S-7', '发票编号', '每个法人实体的发票使用连续且不留空号的序列号。'),
      entry('S-8', '办公室绿植', '办公室的绿植每周一由最早到的同事浇水。'),
    ];
    const w = judge('发票号码按法人实体分别编号，中间不能跳号。', zh, {}, { policy: { ...OFF, weak: 0 } });
    expect(w.canonical_id).toBe('S-7');
  });
});

describe('uncertainty: a same-subject related match that nothing shows compatible goes to review', () => {
  const distinctive = (share: number, mass: number) => [
    `${DISTINCTIVE_PREFIX}${share.toFixed(3)}`,
    `${DISTINCTIVE_MASS_PREFIX}${mass.toFixed(3)}`,
  ];

  it('similar enough (same language): review, with the reason in the evidence', () => {
    const ms = [match('S-9', 0.3, distinctive(0.4, 3))];
    const d = decideVerdict('spec', 'propose', ms, { ...OFF, uncertain: 0.25, uncertainAs: 'potential_conflict' });
    expect(d.disposition).toBe('potential_conflict');
    expect(d.note).toMatch(/same subject, compatibility not shown/);
    const below = decideVerdict('spec', 'propose', ms, { ...OFF, uncertain: 0.35 });
    expect(below.disposition).toBe('related');
  });

  it('shared words that are the corpus’s common ones do not make a shared subject', () => {
    const policy = { ...OFF, uncertain: 0.25, uncertainDistinctive: 0.2, uncertainMass: 1.5 };
    expect(decideVerdict('spec', 'propose', [match('S-10', 0.3, distinctive(0.1, 3))], policy).disposition).toBe(
      'related',
    );
    expect(decideVerdict('spec', 'propose', [match('S-10', 0.3, distinctive(0.5, 0.8))], policy).disposition).toBe(
      'related',
    );
    expect(decideVerdict('spec', 'propose', [match('S-10', 0.3, distinctive(0.5, 2))], policy).disposition).not.toBe(
      'related',
    );
  });

  it('across languages its own floor applies; a different scope or another store is compatible', () => {
    const cross = [match('S-11', 0.2, [`${CROSS_LANGUAGE_PREFIX}en vs zh`, ...distinctive(0.4, 3)])];
    const policy = { ...OFF, uncertain: 0.3, uncertainCross: 0.18, uncertainAs: 'semantic_duplicate' as const };
    const d = decideVerdict('spec', 'propose', cross, policy);
    expect(d.disposition).toBe('semantic_duplicate');
    expect(d.note).toMatch(/across languages/);
    const scoped = [match('S-12', 0.4, ['different scope (not a conflict)', ...distinctive(0.4, 3)])];
    expect(decideVerdict('spec', 'propose', scoped, policy).disposition).toBe('related');
    const tip = [match('knowhow-x', 0.4, distinctive(0.4, 3), 'knowhow')];
    expect(decideVerdict('spec', 'propose', tip, policy).disposition).toBe('related');
  });

  it('end to end (EN, ZH): another approver for the same change is not promoted unreviewed', () => {
    // The restatement rule off too, so that only the uncertainty rule can send these to review.
    const base = { ...OFF, restatement: 1 };
    const policy = { ...base, uncertain: 0.2, uncertainAs: 'potential_conflict' as const };
    const en = [
      entry('S-13', 'Schema changes', 'Database schema changes are approved by the data team before they are merged.'),
    ];
    const enText = 'Whoever leads the author’s team approves a database schema change; nobody else is asked.';
    expect(judge(enText, en, {}, { policy: base }).promotion_eligibility).toBe('eligible');
    const v = judge(enText, en, {}, { policy });
    expect(v.promotion_eligibility).toBe('review_required');
    expect(v.disposition).toBe('potential_conflict');
    expect(v.canonical_id).toBe('S-13');
    expect(v.matches[0].evidence.join(' ')).toMatch(/compatibility not shown/);
    const zh = [entry('S-14', '数据库变更', '数据库结构变更在合并前由数据团队审批。')];
    const zhText = '表结构的修改由提交者的组长签字同意即可上线。';
    // Since maestro-match/2.2 the role slot names the other approver on its own (matcher.slots.test.ts);
    // with slot conflicts off, only the uncertainty rule sends it to review.
    const slotted = judge(zhText, zh, {}, { policy: base });
    expect(slotted.promotion_eligibility).toBe('review_required');
    expect(slotted.matches[0].evidence.join(' ')).toMatch(/different approver: .*组长.* vs .*团队/);
    expect(judge(zhText, zh, {}, { policy: { ...base, slotConflict: 1 } }).promotion_eligibility).toBe('eligible');
    const w = judge(zhText, zh, {}, { policy: { ...policy, slotConflict: 1 } });
    expect(w.promotion_eligibility).toBe('review_required');
    expect(w.canonical_id).toBe('S-14');
  });
});

describe('a named thing one text forbids and the other uses is a differing slot', () => {
  it('words written as names: code-quoted, camelCase, capitalised mid-sentence, joined, Latin in Chinese', () => {
    const names = nameWords('Render charts with `chart-kit` and the DataGrid widget; never call Plotly directly.');
    expect([...names]).toEqual(expect.arrayContaining(['chart-kit', 'chart', 'datagrid', 'plotly']));
    // A capital that opens a sentence says nothing; a plain lower-case word is no name.
    expect(names.has('render')).toBe(false);
    expect(names.has('widget')).toBe(false);
    expect([...nameWords('图表统一用 recharts 渲染。')]).toContain('recharts');
  });

  it('EN: using the library the entry rules out, named inside a longer package name', () => {
    const entryText = analyzeText('Date handling uses Temporal polyfills. Moment is not allowed in new code.');
    const cand = analyzeText('Format dates in the billing views with `moment-timezone` helpers.');
    expect(forbiddenName(cand, entryText)).toBe('uses what the entry forbids: moment-timezone');
    // Agreeing with the prohibition is no difference.
    expect(forbiddenName(analyzeText('Never add `moment-timezone` to the billing views.'), entryText)).toBeNull();
  });

  it('ZH and across languages: the name is written alike in both', () => {
    const zhEntry = analyzeText('前端图表统一使用 ECharts，禁止引入 Highcharts。');
    expect(forbiddenName(analyzeText('新的报表页面用 Highcharts 画折线图。'), zhEntry)).toBe(
      'uses what the entry forbids: highcharts',
    );
    const enEntry = analyzeText('Charts are drawn with ECharts. Do not add Highcharts to the bundle.');
    expect(forbiddenName(analyzeText('运营看板改用 Highcharts 绘制。'), enEntry)).toBe(
      'uses what the entry forbids: highcharts',
    );
    // The other direction: the candidate forbids what the entry uses.
    expect(forbiddenName(analyzeText('不要再使用 ECharts。'), enEntry)).toBe('forbids what the entry uses: echarts');
  });

  it('end to end: a weak match that uses the forbidden name goes to review, naming the slot', () => {
    const corpus = [
      entry(
        'S-15',
        'Charting library',
        'Dashboards draw their charts with ECharts. Do not add Highcharts to the bundle.',
      ),
    ];
    const text = 'The revenue page renders its line graphs through Highcharts.';
    // Too little shared to be topical by the clause rules: listed as weak, with the slot.
    const policy = { ...OFF, weak: 0.1, weakSlot: 0.1, slotConflict: 0.1 };
    const v = judge(text, corpus, {}, { policy });
    expect(v.disposition).toBe('potential_conflict');
    expect(v.promotion_eligibility).toBe('review_required');
    expect(v.canonical_id).toBe('S-15');
    expect(v.matches[0].evidence).toContain(WEAK_EVIDENCE);
    expect(v.matches[0].evidence.join(' | ')).toMatch(/uses what the entry forbids: highcharts/);
    // Without the prohibition the same wording shares too little to be listed at all.
    const allowed = [entry('S-16', 'Charting library', 'Dashboards draw their charts with ECharts.')];
    expect(judge(text, allowed, {}, { policy }).matches).toEqual([]);
  });
});
