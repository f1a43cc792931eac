import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderApprovalQuestion } from './approval-question.js';

// What could reorder, hide or act on text in front of a person.
const HIDDEN =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each is matched alone, to be escaped
  /[\u0000-\u001f\u007f-\u009f\u00a0\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3000\ufe0f\ufeff]/;

describe('renderApprovalQuestion', () => {
  it('shows the arguments whole, as the JSON the tool receives', () => {
    const question = renderApprovalQuestion({
      name: 'create_issue',
      arguments: { title: 'Bug', labels: ['a', 'b'], draft: false, count: 2, skip: undefined },
    });
    expect(question).toEqual({
      tool: 'create_issue',
      arguments: '{"title":"Bug","labels":["a","b"],"draft":false,"count":2}',
      cuts: [],
    });
  });

  it('shows runs of spaces and of escaped characters by their length', () => {
    const { arguments: text } = renderApprovalQuestion({
      name: 'shell',
      arguments: { command: `ls  -l${' '.repeat(3)}x${'\n'.repeat(40)}y${'\u200b'.repeat(5)}z` },
    });
    expect(text).toBe('{"command":"ls  -l⟨3 spaces⟩x⟨40 × \\n⟩y⟨5 × \\u200b⟩z"}');
  });

  it('escapes the markers it uses, so that arguments cannot fake one', () => {
    const { arguments: text } = renderApprovalQuestion({
      name: 't',
      arguments: { note: 'ok⟨600 spaces⟩rm' },
    });
    expect(text).toBe('{"note":"ok\\u27e8600 spaces\\u27e9rm"}');
  });

  it('names a nested field that is cut, and by how much', () => {
    const question = renderApprovalQuestion(
      { name: 't', arguments: { files: [{ path: 'a', body: 'y'.repeat(500) }] } },
      { maxArgumentChars: 200 },
    );
    expect(question.arguments.length).toBeLessThanOrEqual(200);
    expect(question.cuts).toHaveLength(1);
    expect(question.cuts[0]).toMatchObject({ field: 'files[0].body', totalChars: 500 });
    expect(question.notice).toContain("field 'files[0].body' is cut by");
    expect(question.denial?.reason).toContain("field 'files[0].body' would be cut by");
  });

  it('cuts structure too long to show even when no string is long', () => {
    const question = renderApprovalQuestion(
      { name: 't', arguments: { numbers: Array.from({ length: 500 }, (_, index) => index) } },
      { maxArgumentChars: 100, oversize: 'ask' },
    );
    expect(question.arguments.length).toBeLessThanOrEqual(100);
    expect(question.cuts[0]?.field).toBe('numbers');
    expect(question.denial).toBeUndefined();
  });

  it('shows cycles, deep nesting and values JSON cannot hold without throwing', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle['self'] = cycle;
    let deep: unknown = 'bottom';
    for (let index = 0; index < 10_000; index += 1) deep = [deep];
    expect(renderApprovalQuestion({ name: 't', arguments: cycle }).arguments).toBe(
      '{"a":1,"self":⟨circular⟩}',
    );
    expect(renderApprovalQuestion({ name: 't', arguments: { deep } }).denial).toBeDefined();
    expect(
      renderApprovalQuestion({ name: 't', arguments: { n: 10n, x: Number.NaN, d: new Date(0) } })
        .arguments,
    ).toBe('{"n":10n,"x":null,"d":"1970-01-01T00:00:00.000Z"}');
  });

  it('stays fast for arguments of many short strings', () => {
    const many = Array.from({ length: 20_000 }, (_, index) => `item ${index}`);
    const started = performance.now();
    const question = renderApprovalQuestion({ name: 't', arguments: { many } });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(question.denial).toBeDefined();
  });

  it('reads only a bounded part of megabytes of arguments, and says how much is cut', () => {
    const started = performance.now();
    const question = renderApprovalQuestion({
      name: 't',
      arguments: { big: 'x'.repeat(4_000_000), ['k'.repeat(1_000)]: 1 },
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(question.cuts).toEqual([
      {
        field: `["${'k'.repeat(200)}⟨800 characters cut⟩"] (its name)`,
        totalChars: 1_000,
        cutChars: 800,
      },
      { field: 'big', totalChars: 4_000_000, cutChars: expect.any(Number) },
    ]);
    expect(question.cuts[1]!.cutChars).toBeGreaterThan(3_990_000);
    expect(question.denial?.reason).toContain("field 'big' would be cut by");
  });

  it('rejects a bad size or oversize', () => {
    expect(() =>
      renderApprovalQuestion({ name: 't', arguments: {} }, { maxArgumentChars: 0 }),
    ).toThrow(/maxArgumentChars/);
    expect(() =>
      renderApprovalQuestion({ name: 't', arguments: {} }, { oversize: 'allow' as 'ask' }),
    ).toThrow(/oversize/);
  });

  it('never shows a character that hides or reorders text, and never cuts silently', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        fc.integer({ min: 1, max: 200 }),
        (name, value, max) => {
          const question = renderApprovalQuestion(
            { name, arguments: { [name]: value } },
            { maxArgumentChars: max, oversize: 'ask' },
          );
          expect(question.tool).not.toMatch(HIDDEN);
          expect(question.arguments).not.toMatch(HIDDEN);
          const whole = question.cuts.length === 0;
          expect(whole).toBe(!question.arguments.includes('characters cut⟩'));
          expect(whole).toBe(question.notice === undefined);
        },
      ),
    );
  });
});
