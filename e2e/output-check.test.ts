import { checkQueuedOutputs, queueOutput, runMaestro, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

// The e2e setup file moves the CLI's MAESTRO_CHECK_OUTPUT schema check into the test process;
// these prove the moved check still refuses what the CLI's own check refuses.
describe('the --json schema check done in the test process', () => {
  it('refuses a command document that does not match the command’s schema, naming both', async () => {
    queueOutput(['spec', 'list', '--workflow-root', '.', '--json'], '{"schema_version":"maestro-spec-list/1.0"}');
    await expect(checkQueuedOutputs()).rejects.toThrow(
      /maestro spec list --workflow-root \. --json: .*spec-list-output/,
    );
  });

  it('refuses a malformed error document against the error schema', async () => {
    queueOutput(['nope', '--json'], '{"schema_version":"maestro-error/1.0","error":{"code":1}}');
    await expect(checkQueuedOutputs()).rejects.toThrow(/error-output/);
  });

  it('passes what the CLI prints, for a result and for an error', async () => {
    const root = tmpProject();
    const r = runMaestro(['spec', 'list', '--json', '--workflow-root', root]);
    expect(r.code, r.stderr).toBe(0);
    const bad = runMaestro(['spec', 'list', '--bogus', '--json', '--workflow-root', root]);
    expect(bad.code).toBe(2);
    await expect(checkQueuedOutputs()).resolves.toBeUndefined();
    // Text, help and --version are not command documents; the CLI checks none of them either.
    queueOutput(['spec', 'list', '--help', '--json'], 'Usage: maestro spec list');
    queueOutput(['--version', '--json'], '{"schema_version":"maestro-version/1.0"}');
    await expect(checkQueuedOutputs()).resolves.toBeUndefined();
  });
});
