import { describe, expect, it } from 'vitest';
import { entry, judge } from './matcher.fixture.js';
import { MATCH_LIMIT } from './reconcile.js';

const base = [
  entry('S-20250101-a001', 'Logger', 'Use pino for application logging.'),
  entry('S-20250101-a002', 'UTC', 'Store all timestamps in UTC.'),
  entry('S-20250101-a003', 'HTTP timeout', 'The HTTP client timeout is 30 seconds.'),
  entry('S-20250101-a004', 'Images', 'Every image needs meaningful alt text.', { file: 'specs/ui-conventions.md' }),
];

describe('exact duplicates', () => {
  it.each([
    ['case', 'STORE ALL TIMESTAMPS IN utc.'],
    ['whitespace', 'Store  all\n timestamps   in UTC.'],
    ['width', 'Ｓｔｏｒｅ all timestamps in ＵＴＣ.'],
    ['quotes', 'Store all "timestamps" in ‘UTC’.'],
  ])('ignores %s differences and suppresses with the entry as canonical target', (_, text) => {
    const v = judge(text, base);
    expect(v.disposition).toBe('exact_duplicate');
    expect(v.promotion_eligibility).toBe('suppressed');
    expect(v.canonical_id).toBe('S-20250101-a002');
    expect(v.resolution?.status).toBe('automatic');
    expect(v.matches[0].evidence).toContain('normalized content hash matches');
  });

  it('treats spaces between Chinese characters as formatting', () => {
    const v = judge('禁止 在日志中 打印 密码', [entry('S-1', '密码', '禁止在日志中打印密码')]);
    expect(v.disposition).toBe('exact_duplicate');
  });

  it('is never an exact duplicate across stores (related instead, still eligible)', () => {
    const v = judge('Rerun flaky tests 20 times.', [entry('knowhow-flaky', 'Flaky', 'Rerun flaky tests 20 times.')]);
    expect(v.disposition).toBe('related');
    expect(v.promotion_eligibility).toBe('eligible');
  });

  it('never targets a deprecated entry', () => {
    const v = judge('Use pino for application logging.', [
      entry('S-1', 'Logger', 'Use pino for application logging.', { status: 'deprecated' }),
    ]);
    expect(v.disposition).toBe('unique');
    expect(v.matches).toEqual([]);
    expect(v.canonical_id).toBeNull();
  });
});

describe('conflicts', () => {
  it('flags opposite normative stance (reference scenario 9/10) with the evidence string', () => {
    const v = judge('X must not cache results.', [entry('S-1', 'Cache', 'X must cache results.')]);
    expect(v.disposition).toBe('potential_conflict');
    expect(v.promotion_eligibility).toBe('review_required');
    expect(v.matches[0].evidence.join(' ')).toMatch(
      /opposite normative stance: (forbids|requires|permits) what the entry (forbids|requires)/,
    );
    expect(v.matches[0].scores.stance).toBe(0);
  });

  it.each([
    ['必须', '禁止'],
    ['应当', '不得'],
    ['需要', '不能'],
    ['必须', '严禁'],
    ['应该', '不可'],
  ])('reads Chinese stance %s vs %s', (pos, neg) => {
    const v = judge(`接口${neg}缓存响应。`, [entry('S-1', '缓存', `接口${pos}缓存响应。`)]);
    expect(v.disposition).toBe('potential_conflict');
  });

  it('reads antonym verbs as a stance flip (disable vs enable) but double negation as agreement', () => {
    expect(
      judge('Disable source maps in production builds.', [
        entry('S-1', 'Maps', 'Enable source maps in production builds.'),
      ]).disposition,
    ).toBe('potential_conflict');
    expect(
      judge('Do not swallow exceptions.', [entry('S-1', 'Errors', 'Never ignore caught exceptions.')]).disposition,
    ).toBe('semantic_duplicate');
  });

  it('flags different numeric limits without any negation word', () => {
    const v = judge('The HTTP client timeout is 10 seconds.', base);
    expect(v.disposition).toBe('potential_conflict');
    expect(v.canonical_id).toBe('S-20250101-a003');
    expect(v.matches[0].evidence.join(' ')).toMatch(/different values: 10 seconds vs 30 seconds/);
  });

  it('converts units before comparing (60 minutes == 1 hour, 30 s == 30 seconds)', () => {
    expect(
      judge('Tokens expire after 60 minutes.', [entry('S-1', 'T', 'Tokens expire after 1 hour.')]).disposition,
    ).toBe('semantic_duplicate');
    expect(judge('The HTTP client timeout is 30 s.', base).disposition).toBe('semantic_duplicate');
  });

  it('reads a negated bound as a bound, not a prohibition (must not exceed 60 == under 60)', () => {
    const corpus = [entry('S-1', 'Functions', 'Keep functions under 60 lines.')];
    expect(judge('Functions must not exceed 60 lines.', corpus).disposition).toBe('semantic_duplicate');
    expect(judge('Functions must not exceed 40 lines.', corpus).disposition).toBe('potential_conflict');
    expect(judge('函数长度不超过 60 行。', [entry('S-2', '函数', '单个函数不得超过 60 行。')]).disposition).toBe(
      'semantic_duplicate',
    );
  });

  it('does not compare numbers about different things', () => {
    const v = judge('Source files must stay under 400 lines.', [
      entry('S-1', 'Functions', 'Keep functions under 60 lines.'),
    ]);
    expect(v.disposition).not.toBe('potential_conflict');
  });

  it('flags a different chosen library, tool or version', () => {
    expect(judge('Use winston for application logging.', base).disposition).toBe('potential_conflict');
    expect(
      judge('Use bullmq for background jobs.', [entry('S-1', 'Jobs', 'Use agenda for background jobs.')]).disposition,
    ).toBe('potential_conflict');
    expect(
      judge('Compile with TypeScript 5.4.', [entry('S-1', 'TS', 'Compile with TypeScript 5.6.')]).disposition,
    ).toBe('potential_conflict');
    expect(judge('统一使用 yarn 安装依赖。', [entry('S-1', '包管理', '使用 pnpm 安装依赖。')]).disposition).toBe(
      'potential_conflict',
    );
  });

  it('reads "use X" against "never use Y" as consistent, not as a conflict', () => {
    const v = judge('Never use winston.', base);
    expect(v.disposition).not.toBe('potential_conflict');
  });

  it('marks a contest candidate as a conflict with its target', () => {
    const v = judge(
      'Caching API responses is not required.',
      [entry('S-1', 'Caching', 'API handlers must cache responses.')],
      { action: 'contest' },
    );
    expect(v.disposition).toBe('potential_conflict');
  });
});

describe('scope', () => {
  it.each([
    [
      'environments',
      'In production, debug logging must be disabled.',
      'In development, debug logging must be enabled.',
    ],
    ['services', 'The billing service retries webhooks 5 times.', 'The notification service retries webhooks 3 times.'],
    ['paths', 'Files under src/api must use named exports.', 'Files under src/ui must use default exports.'],
    ['layers', '前端变量使用驼峰命名。', '后端变量使用下划线命名。'],
  ])('rules that differ only in %s are related, not conflicts', (_, a, b) => {
    const v = judge(a, [entry('S-1', 'x', b)]);
    expect(v.disposition).toBe('related');
    expect(v.promotion_eligibility).toBe('eligible');
    expect(v.matches[0].evidence).toContain('different scope (not a conflict)');
  });

  it('an exception to a global rule still needs review', () => {
    expect(judge('In the API service, use winston for logging.', base).disposition).toBe('potential_conflict');
  });

  it('generalising a scoped rule extends it', () => {
    const v = judge('All money amounts are stored as integer cents.', [
      entry('S-1', 'Money', 'In the payments service, all money amounts are stored as integer cents.'),
    ]);
    expect(v.disposition).toBe('extends');
  });
});

describe('duplicates, extensions, relations', () => {
  it('finds a paraphrase with little word overlap', () => {
    const v = judge('Persist every date-time value as Coordinated Universal Time.', base);
    expect(v.disposition).toBe('semantic_duplicate');
    expect(v.canonical_id).toBe('S-20250101-a002');
    expect(v.matches[0].scores.semantic).toBeGreaterThan(v.matches[0].scores.lexical);
  });

  it('finds a cross-language paraphrase', () => {
    expect(judge('时间戳必须使用 UTC 存储。', base).disposition).toBe('semantic_duplicate');
  });

  it('extends an entry when it restates it and adds real content', () => {
    const v = judge('Store all timestamps in UTC and include the UTC offset in every API response.', base);
    expect(v.disposition).toBe('extends');
    expect(v.matches[0].evidence.join(' ')).toMatch(/novel token share/);
  });

  it('keeps related candidates eligible', () => {
    const v = judge('Log every failed login attempt with the client IP.', [
      entry('S-1', 'Errors', 'Log errors with the request id.'),
    ]);
    expect(v.disposition).toBe('related');
    expect(v.promotion_eligibility).toBe('eligible');
  });

  it('is unique when nothing shares its subject (reference scenario 12)', () => {
    const v = judge('Prefer composition over inheritance in UI components.', base);
    expect(v).toMatchObject({
      disposition: 'unique',
      promotion_eligibility: 'eligible',
      canonical_id: null,
      matches: [],
    });
  });
});

describe('actions and eligibility', () => {
  it('supersede of a same-titled entry is a supersede candidate (reference scenario 11)', () => {
    const v = judge('Structured logs go through pino.', [entry('S-1', 'Logging library', 'Use winston.')], {
      action: 'supersede',
      title: 'Logging library',
    });
    expect(v).toMatchObject({
      disposition: 'supersede_candidate',
      canonical_id: 'S-1',
      promotion_eligibility: 'review_required',
    });
  });

  it('replacement wording makes a conflict a supersede candidate', () => {
    expect(
      judge('Use date-fns instead of moment.js for dates.', [entry('S-1', 'Dates', 'Use moment.js for date handling.')])
        .disposition,
    ).toBe('supersede_candidate');
    expect(
      judge('不再使用 moment，日期处理改用 date-fns。', [entry('S-1', '日期', '日期处理使用 moment。')]).disposition,
    ).toBe('supersede_candidate');
  });

  it('a reaffirm keeps the disposition its text warrants and names the reaffirmed entry', () => {
    const exact = judge('Store all timestamps in UTC.', base, { action: 'reaffirm' });
    expect(exact).toMatchObject({
      disposition: 'exact_duplicate',
      canonical_id: 'S-20250101-a002',
      reaffirms: 'S-20250101-a002',
    });
    expect(judge('Prefer small pure functions.', base, { action: 'reaffirm' }).reaffirms).toBeNull();
    expect(judge('Store all timestamps in UTC.', base).reaffirms).toBeNull();
  });

  it('needs a person for transcript-only evidence and for a contest or supersede that names nothing', () => {
    const text = 'Deploys happen only on weekdays.';
    expect(
      judge(text, base, { evidence_refs: ['run:R', 'transcript:pi:s:e:0123456789abcdef'] }).promotion_eligibility,
    ).toBe('review_required');
    expect(judge(text, base, { evidence_refs: ['run:R', 'report.md#decision:D-1'] }).promotion_eligibility).toBe(
      'eligible',
    );
    expect(judge(text, base, { action: 'supersede' }).promotion_eligibility).toBe('review_required');
  });

  it('scores the recorded relation of entries the run used, when they share its subject', () => {
    const corpus = [
      ...base,
      entry('S-20250101-a005', 'Old logger', 'Route log lines through the shared logger module.', {
        supersededBy: 'S-20250101-a001',
      }),
    ];
    const v = judge(
      'Route log lines through the shared logger module in every worker too.',
      corpus,
      {},
      {
        seeds: ['S-20250101-a001'],
      },
    );
    const linked = v.matches.find((m) => m.knowledge_id === 'S-20250101-a005');
    expect(linked?.scores.relation).toBe(1);
    expect(linked?.evidence).toContain('recorded knowledge or graph relation');
  });

  it('never matches a loaded rule that shares nothing with the candidate (EN and ZH)', () => {
    const corpus = [...base, entry('S-20250101-a006', '日志库', '服务端统一使用 pino 记录日志。')];
    for (const [text, seed] of [
      ['The settings page offers a dark mode toggle stored per user.', 'S-20250101-a001'],
      ['设置页面提供按用户保存的深色模式开关。', 'S-20250101-a006'],
    ] as const) {
      const v = judge(text, corpus, {}, { seeds: [seed] });
      expect(v.matches.map((m) => m.knowledge_id)).not.toContain(seed);
      expect(v.disposition).toBe('unique');
    }
  });
});

describe('match caps (reference scenario 14)', () => {
  it('keeps at most 2 per file, 8 per store and 12 in all, both stores present', () => {
    const corpus = [];
    for (let f = 0; f < 5; f++) {
      for (let k = 0; k < 3; k++) {
        corpus.push(
          entry(
            `S-2025010${f}-f${k}0`,
            `Cache ${f}${k}`,
            `Cache read-only API responses for ${k + 1} minutes in module ${f}.`,
            { file: `specs/file-${f}.md` },
          ),
        );
      }
    }
    for (let k = 0; k < 5; k++)
      corpus.push(
        entry(`knowhow-cache-${k}`, `Cache ${k}`, `Cache read-only API responses for a few minutes, note ${k}.`),
      );
    const v = judge('Cache read-only API responses for 10 minutes.', corpus);
    const perFile = new Map<string, number>();
    for (const m of v.matches) perFile.set(m.source_path, (perFile.get(m.source_path) ?? 0) + 1);
    expect(Math.max(...perFile.values())).toBeLessThanOrEqual(2);
    expect(v.matches.filter((m) => m.target === 'spec').length).toBeLessThanOrEqual(8);
    expect(v.matches.length).toBeLessThanOrEqual(MATCH_LIMIT);
    expect(new Set(v.matches.map((m) => m.target))).toEqual(new Set(['spec', 'knowhow']));
  });
});
