import { readTree, runMaestro, sessionTree, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const S = '20260102-auth';
const R = '20260102-001-plan';
const SPEC = `<spec-entry category="coding" keywords="t" date="2026-01-01" sid="S-20260101-utc1" title="Use UTC">

### Use UTC

Store times in UTC.

</spec-entry>
`;

const cases: [string, string[], RegExp, RegExp][] = [
  [
    'unknown session',
    ['run', 'start', '--session', '20260102-nope'],
    /unknown session "20260102-nope"/,
    /maestro session list/,
  ],
  ['malformed session id', ['session', 'show', '../../etc'], /invalid session id/, /session list/],
  [
    'unknown run',
    ['knowledge', 'stage', 'spec', 'T', 'C', '--session', S, '--run', '20260102-009-x'],
    /unknown run "20260102-009-x"/,
    /maestro session show 20260102-auth/,
  ],
  ['malformed run id', ['run', 'seal', 'plan', '--session', S], /invalid run id "plan"/, /session show/],
  ['missing --session', ['run', 'start'], /--session is required/, /maestro run start --session/],
  [
    'empty title',
    ['knowledge', 'stage', 'spec', ' ', 'C', '--session', S, '--run', R],
    /title is empty/,
    /second argument/,
  ],
  [
    'missing content',
    ['knowledge', 'stage', 'spec', 'T', '--session', S, '--run', R],
    /content is empty/,
    /--content-file/,
  ],
  [
    'content twice',
    ['knowledge', 'stage', 'spec', 'T', 'C', '--content-file', 'x.md', '--session', S, '--run', R],
    /not both/,
    /drop one/,
  ],
  [
    'missing content file',
    ['knowledge', 'stage', 'spec', 'T', '--content-file', 'nope.md', '--session', S, '--run', R],
    /--content-file not found: .*nope\.md/,
    /check the path/,
  ],
  [
    'unknown target',
    ['knowledge', 'stage', 'rule', 'T', 'C', '--session', S, '--run', R],
    /target must be one of spec, knowhow \(got "rule"\)/,
    /knowledge stage spec/,
  ],
  [
    'unknown action',
    ['knowledge', 'stage', 'spec', 'T', 'C', '--action', 'replace', '--session', S, '--run', R],
    /--action must be one of propose, reaffirm, supersede, contest/,
    /propose/,
  ],
  [
    'unknown signal',
    ['knowledge', 'record', 'S-20260101-utc1', '--signal', 'used', '--session', S, '--run', R],
    /--signal must be one of consumed, cited, validated, contradicted/,
    /consumed = used/,
  ],
  [
    'signal without ids',
    ['knowledge', 'stage', 'spec', 'T', 'C', '--signal', 'cited', '--session', S, '--run', R],
    /--signal needs --signal-ids/,
    /--signal-ids/,
  ],
  [
    'ids without signal',
    ['knowledge', 'stage', 'spec', 'T', 'C', '--signal-ids', 'S-1', '--session', S, '--run', R],
    /--signal-ids needs --signal/,
    /--signal cited/,
  ],
  [
    'unknown source',
    ['knowledge', 'record', 'S-20260101-utc1', '--signal', 'cited', '--source', 'web', '--session', S, '--run', R],
    /--source must be one of load, search, injection, manual/,
    /manual/,
  ],
  [
    'unknown knowledge id',
    ['knowledge', 'record', 'S-20260101-zzzz', '--signal', 'cited', '--session', S, '--run', R],
    /unknown knowledge id\(s\): S-20260101-zzzz/,
    /--allow-unknown/,
  ],
  [
    'record without ids',
    ['knowledge', 'record', '--signal', 'cited', '--session', S, '--run', R],
    /missing <id\.\.\.>/,
    /usage/,
  ],
  ['load without ids', ['load'], /no ids to load/, /--id/],
  [
    'load with half an attribution',
    ['load', '--id', 'S-20260101-utc1', '--run', R],
    /--session and --run go together/,
    /both/,
  ],
  ['taken session id', ['session', 'create', '--id', S], /session "20260102-auth" already exists/, /another --id/],
  ['unknown flag', ['session', 'list', '--colour'], /Unknown option '--colour'/, /maestro session list --help/],
];

test.each(cases)('%s → exit 2 with the fix, nothing written', (_name, args, message, hint) => {
  const root = tmpProject({
    ...sessionTree({ sessionId: S, runs: [{ runId: R, status: 'running' }] }),
    '.workflow/specs/coding-conventions.md': SPEC,
  });
  const before = readTree(root);
  const r = runMaestro(args, { cwd: root });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).toMatch(new RegExp(`hint: .*${hint.source}`));
  expect(r.stdout).toBe('');
  expect(readTree(root)).toEqual(before);
});

test('--allow-unknown records unknown ids as given, with a warning', () => {
  const root = tmpProject(sessionTree({ sessionId: S, runs: [{ runId: R, status: 'running' }] }));
  const r = runMaestro(
    [
      'knowledge',
      'record',
      'S-20260101-zzzz',
      '--signal',
      'cited',
      '--allow-unknown',
      '--session',
      S,
      '--run',
      R,
      '--json',
    ],
    { cwd: root },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('warning: recorded unknown id(s) as given: S-20260101-zzzz');
  expect(r.json()).toMatchObject({ recorded: 1, unknown_ids: ['S-20260101-zzzz'] });
});
