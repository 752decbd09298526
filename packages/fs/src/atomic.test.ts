import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fixedRuntime, MaestroError, sha256 } from '@maestro/core';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import {
  backupFiles,
  commitFiles,
  readBackupManifest,
  readIntent,
  readJsonIfExists,
  readUserFile,
  recoverCommit,
  restoreFiles,
  writeFileAtomic,
} from './index.js';

const FS_DIST = resolve(import.meta.dirname, '../dist/index.js');
const rt = fixedRuntime('2026-03-01T00:00:00Z');

describe('writeFileAtomic', () => {
  it('writes the bytes, creates the directory and leaves no temp file', async () => {
    const dir = tmpDir();
    const path = join(dir, 'a/b/c.md');
    await writeFileAtomic(path, 'one\r\n');
    await writeFileAtomic(path, Buffer.from('two\r\n'));
    expect(readFileSync(path, 'utf8')).toBe('two\r\n');
    expect(readdirSync(join(dir, 'a/b'))).toEqual(['c.md']);
  });
});

describe('reading user files', () => {
  it('names a missing file with exit 2', () => {
    const err = (() => {
      try {
        readUserFile('/nope/x.md', '--content-file');
      } catch (e) {
        return e as MaestroError;
      }
    })();
    expect(err).toBeInstanceOf(MaestroError);
    expect(err?.exitCode).toBe(2);
    expect(err?.message).toBe('--content-file not found: /nope/x.md');
  });
  it('refuses a file that is not valid UTF-8 (exit 2) and reads a valid one', () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'bad.txt'), Buffer.from([0x61, 0xff, 0xfe, 0x62]));
    expect(() => readUserFile(join(dir, 'bad.txt'), '--content-file')).toThrow(
      /--content-file is not valid UTF-8 text/,
    );
    writeFileSync(join(dir, 'ok.txt'), '规则 ✓\r\n');
    expect(readUserFile(join(dir, 'ok.txt'))).toBe('规则 ✓\r\n');
  });
  it('returns null for a missing JSON file and names line and column of bad JSON', () => {
    const dir = tmpDir();
    expect(readJsonIfExists(join(dir, 'none.json'))).toBeNull();
    writeFileSync(join(dir, 'bad.json'), '{\n "a": }');
    expect(() => readJsonIfExists(join(dir, 'bad.json'))).toThrow(/bad\.json:2:\d+: invalid JSON/);
  });
});

describe('commitFiles and recovery', () => {
  it('writes every file and removes the intent', async () => {
    const dir = tmpDir();
    const intent = join(dir, 'intent.json');
    await commitFiles(
      dir,
      intent,
      [
        { path: 'x/a.md', content: 'A' },
        { path: join(dir, 'b.md'), content: 'B' },
      ],
      { op: 't' },
      rt,
    );
    expect(readFileSync(join(dir, 'x/a.md'), 'utf8')).toBe('A');
    expect(readFileSync(join(dir, 'b.md'), 'utf8')).toBe('B');
    expect(existsSync(intent)).toBe(false);
  });

  it('journals raw bytes (not valid UTF-8) and recovers them exactly', async () => {
    const dir = tmpDir();
    const intent = join(dir, 'intent.json');
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80]);
    await commitFiles(dir, intent, [{ path: 'logo.png', content: bytes }], {}, rt);
    expect(new Uint8Array(readFileSync(join(dir, 'logo.png')))).toEqual(bytes);
    writeFileSync(join(dir, 'logo.png'), 'clobbered');
    writeFileSync(
      intent,
      JSON.stringify({
        schema_version: 'maestro-commit-intent/1.0',
        id: 'x',
        created_at: '1970-01-01T00:00:00.000Z',
        writes: [
          {
            path: 'logo.png',
            sha256: sha256(bytes),
            content: Buffer.from(bytes).toString('base64'),
            encoding: 'base64',
          },
        ],
        meta: {},
      }),
    );
    await recoverCommit(dir, intent);
    expect(new Uint8Array(readFileSync(join(dir, 'logo.png')))).toEqual(bytes);
  });

  for (const point of ['t:after-intent', 't:after-file-1', 't:after-file-2']) {
    it(`rolls forward after a SIGKILL at ${point}`, async () => {
      const dir = tmpDir();
      writeFileSync(join(dir, 'a.md'), 'old-a');
      writeFileSync(join(dir, 'b.md'), 'old-b');
      const intent = join(dir, 'intent.json');
      const script = `import * as m from ${JSON.stringify(FS_DIST)}; import { fixedRuntime } from '@maestro/core';
        await m.commitFiles(${JSON.stringify(dir)}, ${JSON.stringify(intent)}, [{path:'a.md',content:'new-a'},{path:'b.md',content:'new-b'}], {n:1}, { now: () => new Date(0), randomBytes: (n) => new Uint8Array(n) }, 't');`;
      const r = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', script.replace(/import \{ fixedRuntime \}[^;]+;/, '')],
        {
          env: { ...process.env, MAESTRO_CRASH_AT: point },
        },
      );
      expect(r.signal).toBe('SIGKILL');
      expect(readIntent(intent)?.meta).toEqual({ n: 1 });
      const recovered = await recoverCommit(dir, intent);
      expect(recovered?.meta).toEqual({ n: 1 });
      expect(readFileSync(join(dir, 'a.md'), 'utf8')).toBe('new-a');
      expect(readFileSync(join(dir, 'b.md'), 'utf8')).toBe('new-b');
      expect(existsSync(intent)).toBe(false);
      expect(await recoverCommit(dir, intent)).toBeNull();
    });
  }

  it('refuses a damaged intent rather than guessing', async () => {
    const dir = tmpDir();
    const intent = join(dir, 'intent.json');
    writeFileSync(
      intent,
      JSON.stringify({
        schema_version: 'maestro-commit-intent/1.0',
        writes: [{ path: 'a', sha256: '00', content: 'x' }],
      }),
    );
    await expect(recoverCommit(dir, intent)).rejects.toThrow(/damaged entry for a/);
  });
});

describe('backups', () => {
  it('copies files with a manifest and restores them byte for byte', async () => {
    const dir = tmpDir();
    mkdirSync(join(dir, 'specs'));
    writeFileSync(join(dir, 'specs/a.md'), 'A\r\nline\r\n');
    const backup = join(dir, '.trash/b1');
    const manifest = await backupFiles(dir, ['specs/a.md', 'specs/missing.md'], backup, {
      createdAt: 'now',
      reason: 'test',
    });
    expect(manifest.files.map((f) => f.path)).toEqual(['specs/a.md']);
    writeFileSync(join(dir, 'specs/a.md'), 'changed');
    expect(await restoreFiles(dir, backup)).toEqual(['specs/a.md']);
    expect(readFileSync(join(dir, 'specs/a.md'), 'utf8')).toBe('A\r\nline\r\n');
    expect(readBackupManifest(backup)?.reason).toBe('test');
  });
});

describe('writeFileAtomic after an fstat of a FIFO', () => {
  it('still writes: the write path loads no module lazily (nodejs/node#51142 broke the next require)', () => {
    const dir = tmpDir();
    const fifo = join(dir, 'pipe');
    spawnSync('mkfifo', [fifo]);
    const target = join(dir, 'out.json');
    // What a pack reader does to a FIFO it refuses, then what `pack resolve --record` does next.
    const code = `import * as mfs from ${JSON.stringify(FS_DIST)};
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
const fd = openSync(${JSON.stringify(fifo)}, constants.O_RDONLY | constants.O_NONBLOCK);
fstatSync(fd);
closeSync(fd);
await mfs.writeJsonAtomic(${JSON.stringify(target)}, { ok: true });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).not.toContain('Cannot find module');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ ok: true });
  });
});
