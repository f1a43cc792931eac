import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BATCH_META_KEY, batchCallResult } from './batch-result.js';
import { errorResult, UPSTREAM_ERROR_META_KEY } from './error-result.js';

const ok: CallToolResult = { content: [{ type: 'text', text: '5' }] };

describe('batchCallResult', () => {
  it('gives each call of the batch the error code its own result had', () => {
    const result = batchCallResult([
      { name: 'get-sum', result: ok },
      { name: 'delete_entities', result: errorResult('denied', 'Denied by guardrail') },
      { name: 'slow', result: errorResult('upstream_timeout', 'did not answer') },
      { name: 'odd', result: { isError: true, content: [{ type: 'text', text: 'refused' }] } },
    ]);
    expect(result.isError).toBeUndefined();
    expect(result._meta?.[BATCH_META_KEY]).toEqual([
      { name: 'get-sum', status: 'ok' },
      { name: 'delete_entities', status: 'error', code: 'denied' },
      { name: 'slow', status: 'error', code: 'upstream_timeout' },
      { name: 'odd', status: 'error' },
    ]);
    expect(result._meta?.[UPSTREAM_ERROR_META_KEY]).toBeUndefined();
  });

  it('carries the code of a batch whose every call failed the same way, as a single call would', () => {
    const result = batchCallResult([
      { name: 'a', result: errorResult('denied', 'no') },
      { name: 'b', result: errorResult('denied', 'no') },
    ]);
    expect(result.isError).toBe(true);
    expect(result._meta?.[UPSTREAM_ERROR_META_KEY]).toBe('denied');
  });
});
