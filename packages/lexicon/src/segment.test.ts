import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { englishGlosses, segmentChinese, segmenterLoaded } from '@maestro/lexicon';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('Chinese segmentation (jieba over the vocabulary of CC-CEDICT)', () => {
  it('loads nothing until the first Chinese text is segmented', () => {
    // First test of the file (vitest runs each file in its own module graph): imported, not used.
    expect(segmenterLoaded()).toBe(false);
    expect(segmentChinese('')).toEqual([]);
    expect(segmenterLoaded()).toBe(false);
    expect(segmentChinese('缓存')).toEqual(['缓存']);
    expect(segmenterLoaded()).toBe(true);
  });

  it('cuts sentences of engineering rules into words', () => {
    expect(segmentChinese('禁止在生产环境直接修改配置')).toEqual([
      '禁止',
      '在',
      '生产',
      '环境',
      '直接',
      '修改',
      '配置',
    ]);
    expect(segmentChinese('必须先运行测试再合并分支')).toEqual(['必须', '先', '运行', '测试', '再', '合并', '分支']);
    expect(segmentChinese('日志应该写到标准输出')).toEqual(['日志', '应该', '写', '到', '标准', '输出']);
  });

  it('keeps a word the glosses know whole, even where jieba alone would cut it', () => {
    // jieba's own frequencies cut 时区 into 时 / 区; CC-CEDICT glosses it "time zone".
    expect(segmentChinese('时区')).toEqual(['时区']);
    expect(segmentChinese('时区统一为协调世界时')[0]).toBe('时区');
    expect(englishGlosses('时区')).toEqual(['time zone']);
  });

  it('cuts a compound no gloss knows into the glossed words it is made of', () => {
    // jieba has 连接池 as one word; no gloss does, 连接 (connect) and 池 (pool) do.
    expect(segmentChinese('数据库连接池')).toEqual(['数据库', '连接', '池']);
    for (const w of segmentChinese('从不可信的来源读取数据')) {
      if (w.length > 1) expect(englishGlosses(w), w).not.toEqual([]);
    }
  });

  it('keeps names CC-CEDICT lists whole, so their neighbours keep their words', () => {
    // 西班牙语 (Spanish) has no gloss of one or two lower-case words; cut into characters, 语文 would take 语.
    expect(segmentChinese('西班牙语文案审校')).toEqual(['西班牙语', '文案', '审校']);
  });

  it('chooses between overlapping words by probability, where the fewest pieces tie', () => {
    // Three pieces either way; fewest-pieces matching cut 通 / 过后, 异 / 常时, 发 / 现在, 返 / 回空.
    expect(segmentChinese('验证通过后自动')).toEqual(['验证', '通过', '后', '自动']);
    expect(segmentChinese('方法在异常时返回')).toEqual(['方法', '在', '异常', '时', '返回']);
    expect(segmentChinese('但发现在执行')).toEqual(['但', '发现', '在', '执行']);
    expect(segmentChinese('查询失败静默返回空')).toEqual(['查询', '失败', '静默', '返回', '空']);
  });

  it('gives characters no word covers one by one, astral ones whole', () => {
    expect(segmentChinese('氪氙')).toEqual(['氪', '氙']);
    expect(segmentChinese('𠀀𠀁文件')).toEqual(['𠀀', '𠀁', '文件']);
  });

  it('keeps Latin words, identifiers, numbers and punctuation of mixed text apart from the Chinese words', () => {
    const cut = segmentChinese('使用JWT认证，超时30秒。');
    expect(cut).toEqual(expect.arrayContaining(['使用', 'JWT', '认证', '超时', '30', '秒']));
    expect(cut.join('')).toBe('使用JWT认证，超时30秒。');
    const code = segmentChinese('不要用console.log打日志');
    expect(code).toEqual(expect.arrayContaining(['不要', 'console', 'log', '日志']));
    expect(code.join('')).toBe('不要用console.log打日志');
  });

  it('cuts as the whole dictionary would, whatever was segmented before', () => {
    // Reference: jieba given every word at once, the placeholder word at its floor of 1.
    const { Jieba } = createRequire(import.meta.url)('@node-rs/jieba');
    const whole = Jieba.withDict(
      Buffer.concat([readFileSync(new URL('../data/zh-dict.txt', import.meta.url)), Buffer.from('\uE000 1\n')]),
    );
    const texts = [
      '产品必须以分类目录为主线',
      '提交或治理门禁不一致时',
      '信号生成器的后处理链',
      '为主',
      '主线',
      '订单漂移检测与对账引擎',
      '但发现在执行而非规划时',
    ];
    const first = texts.map(segmentChinese);
    const again = [...texts].reverse().map(segmentChinese).reverse();
    expect(again).toEqual(first);
    for (const [i, t] of texts.entries()) expect(first[i], t).toEqual(whole.cut(t, false));
    fc.assert(
      fc.property(fc.stringMatching(/^[\u4e00-\u9fff]{1,30}$/), (t) => {
        expect(segmentChinese(t)).toEqual(whole.cut(t, false));
      }),
      { numRuns: 200 },
    );
  });

  it('returns pieces that join back to the text, for any text', () => {
    const han = fc.stringMatching(/^[\u4e00-\u9fff]{0,40}$/);
    const mixed = fc.array(fc.oneof(han, fc.string({ maxLength: 6 }), fc.constantFrom('，', '。', ' ', '30s', 'a.b')), {
      maxLength: 8,
    });
    fc.assert(
      fc.property(han, (s) => {
        const cut = segmentChinese(s);
        expect(cut.join('')).toBe(s);
        for (const w of cut) expect(w.length).toBeGreaterThan(0);
      }),
    );
    fc.assert(
      fc.property(mixed, (parts) => {
        const text = parts.join('');
        expect(segmentChinese(text).join('')).toBe(text);
      }),
    );
  });
});
