import { describe, expect, it } from 'vitest';
import { createDispatcher } from './dispatcher.js';
import { createResultTruncationHook } from './result-truncation-hook.js';

async function run(maxChars: number, result: unknown) {
  const dispatch = createDispatcher({
    execute: () => result,
    hooks: [createResultTruncationHook(maxChars)],
  });
  const answer = await dispatch({ name: 't', arguments: {} });
  return answer.status === 'ok' ? answer.result : answer;
}

describe('createResultTruncationHook', () => {
  it('leaves results within the limit alone', async () => {
    const result = { content: [{ type: 'text', text: 'short' }] };
    expect(await run(10, 'short')).toBe('short');
    expect(await run(10, result)).toBe(result);
    expect(await run(100, { a: 1 })).toEqual({ a: 1 });
  });

  it('cuts a long string and says so', async () => {
    expect(await run(5, 'abcdefghij')).toBe('abcde\n… [truncated: showing 5 of 10 characters]');
  });

  it('never splits a surrogate pair', async () => {
    expect(await run(3, 'ab😀cd')).toBe('ab\n… [truncated: showing 2 of 6 characters]');
  });

  it('shares the budget across the text blocks of an MCP result and keeps other blocks', async () => {
    const image = { type: 'image', data: 'x'.repeat(100), mimeType: 'image/png' };
    const result = {
      content: [
        { type: 'text', text: 'abcd' },
        image,
        { type: 'text', text: 'efghij' },
        { type: 'text', text: 'klm' },
      ],
      isError: false,
    };
    expect(await run(6, result)).toEqual({
      content: [
        { type: 'text', text: 'abcd' },
        image,
        { type: 'text', text: 'ef\n… [truncated: showing 2 of 6 characters]' },
        { type: 'text', text: '\n… [truncated: showing 0 of 3 characters]' },
      ],
      isError: false,
    });
    expect(result.content[2]).toEqual({ type: 'text', text: 'efghij' });
  });

  it('turns any other long value into its cut JSON', async () => {
    expect(await run(10, { list: [1, 2, 3, 4, 5, 6] })).toBe(
      '{"list":[1\n… [truncated: showing 10 of 22 characters]',
    );
  });

  it('leaves values without JSON alone', async () => {
    expect(await run(1, undefined)).toBeUndefined();
    expect(await run(1, { n: 1n })).toEqual({ n: 1n });
  });

  it('has a name and rejects a limit that is not a positive integer', () => {
    expect(createResultTruncationHook(1).name).toBe('result-truncation');
    expect(() => createResultTruncationHook(0)).toThrow(/maxChars/);
    expect(() => createResultTruncationHook(1.5)).toThrow(/maxChars/);
  });
});
