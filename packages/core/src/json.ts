import { inputError } from './errors.js';

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * Parses JSON, turning a syntax error into a MaestroError (exit 2) that names the file, line and
 * column. A leading BOM is tolerated.
 */
export function parseJsonText(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const m = /position (\d+)/.exec(message);
    const at = m ? lineColumnAt(body, Number(m[1])) : body.trim() === '' ? { line: 1, column: 1 } : undefined;
    const detail = body.trim() === '' ? 'the file is empty' : message.replace(/^JSON\.parse: /, '');
    throw inputError('INVALID_JSON', `${file}${at ? `:${at.line}:${at.column}` : ''}: invalid JSON: ${detail}`, {
      hint: `fix or restore ${file}; nothing was written`,
      location: { file, ...(at ?? {}) },
      cause: err,
    });
  }
}
