#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runCli } from './cli.js';

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => {
      try {
        resolve(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        const err = Object.assign(new Error('standard input is not valid UTF-8 text'), {
          code: 'STDIN_NOT_UTF8',
          exitCode: 2,
          hint: 'convert it to UTF-8 (e.g. iconv -t UTF-8) and rerun; nothing was written',
        });
        reject(err);
      }
    });
    process.stdin.on('error', reject);
  });
}

export async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    readStdin,
  });
  process.exitCode = code;
}

// Run when started as the binary, including through a symlinked global bin.
const entry = process.argv[1] ? pathToFileURL(realpathSync(process.argv[1])).href : '';
if (import.meta.url === entry) void main();
