import { describe, expect, it } from 'vitest';
import { markdownCodeBlock, pasteCode, strictTsconfig } from './scenario-kit.js';

const readme = [
  '# pkg',
  '```sh',
  'npm install pkg',
  '```',
  '```ts',
  'const first = 1;',
  '```',
  '<!-- include: docs/examples/x.ts#loop -->',
  '```ts',
  'for (;;) break;',
  '```',
  '<!-- /include -->',
].join('\n');

describe('markdownCodeBlock', () => {
  it('takes the first ts block, skipping other languages', () => {
    expect(markdownCodeBlock(readme)).toBe('const first = 1;');
  });

  it('takes the block after a marker line', () => {
    expect(markdownCodeBlock(readme, '<!-- include: docs/examples/x.ts#loop -->')).toBe(
      'for (;;) break;',
    );
  });

  it('names what is missing', () => {
    expect(() => markdownCodeBlock(readme, '<!-- include: y -->')).toThrow(
      'no line <!-- include: y -->',
    );
    expect(() => markdownCodeBlock('# no code')).toThrow('no ```ts block');
  });
});

describe('pasteCode', () => {
  it('replaces a marker line with the code, as it is', () => {
    const text = pasteCode('a;\n// <here>\nb;', { marker: '// <here>' }, '  x();\ny();');
    expect(text).toBe('a;\n  x();\ny();\nb;');
  });

  it('replaces the body of a region and keeps its markers', () => {
    const source = 'a;\n// #region r\nold();\n// #endregion r\nb;';
    expect(pasteCode(source, { region: 'r' }, 'fresh();')).toBe(
      'a;\n// #region r\nfresh();\n// #endregion r\nb;',
    );
  });

  it('refuses a missing or repeated marker and a missing region', () => {
    expect(() => pasteCode('a;', { marker: '// <here>' }, 'x')).toThrow('no // <here>');
    expect(() => pasteCode('// <here>\n// <here>', { marker: '// <here>' }, 'x')).toThrow(
      'more than once',
    );
    expect(() => pasteCode('a;', { region: 'r' }, 'x')).toThrow('no #region r');
  });
});

describe('strictTsconfig', () => {
  it('type-checks the sources under strict mode into out/', () => {
    const config = strictTsconfig('src') as {
      compilerOptions: Record<string, unknown>;
      include: string[];
    };
    expect(config.compilerOptions).toMatchObject({ strict: true, rootDir: 'src', outDir: 'out' });
    expect(config.include).toEqual(['src']);
  });
});
