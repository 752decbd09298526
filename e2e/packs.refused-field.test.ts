import { join } from 'node:path';
import { PackResolveOutput } from '@maestro/packs';
import { runMaestro, tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, writePack } from '../packages/packs/src/fixtures.test-util.js';

/** Issue 19 item 12: one metadata path outside the pack no longer refuses the whole pack at run time. */
describe('a pack whose metadata names a path outside it', () => {
  it('is served without that field (diagnostic naming field and path); pack validate still fails', () => {
    const root = tmpProject();
    const home = tmpDir('maestro-home-');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), MAESTRO_NOW: '2026-05-06T09:10:00Z' };
    const run = (args: string[]) => runMaestro(args, { cwd: root, env });
    const front = baseFront('glossary', { metadata: { primaryDocument: '../../etc/passwd' } });
    const pack = writePack(
      join(root, '.agents/knowledge'),
      'glossary',
      front,
      {},
      '# Glossary\n\nA widget is a small reusable component.\n',
    );
    const r = run([
      'pack',
      'resolve',
      '--query',
      'what is a widget',
      '--pack',
      'glossary',
      '--trust-workspace',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = PackResolveOutput.parse(r.json());
    expect(JSON.stringify(out)).toContain('A widget is a small reusable component.');
    expect(JSON.stringify(out)).not.toContain('root:x:0');
    expect(r.stderr).toMatch(/refused metadata\.primaryDocument: path escapes the pack root: \.\.\/\.\.\/etc\/passwd/);
    const v = run(['pack', 'validate', pack]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/error: metadata\.primaryDocument: path escapes the pack root/);
    // The agent hook gets the pack too, with the same diagnostic.
    const c = run(['context', 'what is a widget', '--pack', 'glossary', '--trust-workspace']);
    expect(c.code).toBe(0);
    expect(c.stdout).toContain('A widget is a small reusable component.');
    expect(c.stderr).toMatch(/refused metadata\.primaryDocument/);
  });
});
