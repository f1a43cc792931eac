import { describe, expect, it } from 'vitest';
import { createCallbackApproval } from './callback-approval.js';
import { createDispatcher } from './dispatcher.js';
import type { ApprovalRequest } from './types.js';

const request: ApprovalRequest = {
  call: { name: 'write_file', arguments: {} },
  via: 'direct',
  signal: new AbortController().signal,
};

describe('createCallbackApproval', () => {
  it('passes decisions and answers through', async () => {
    expect(await createCallbackApproval(() => 'allow-session').request(request)).toBe(
      'allow-session',
    );
    expect(
      await createCallbackApproval(async () => ({ decision: 'deny', reason: 'r' })).request(
        request,
      ),
    ).toEqual({
      decision: 'deny',
      reason: 'r',
    });
  });

  it('reads true as allow-once and false as deny', async () => {
    expect(await createCallbackApproval(() => true).request(request)).toBe('allow-once');
    expect(await createCallbackApproval(() => false).request(request)).toEqual({
      decision: 'deny',
      reason: "The call to 'write_file' was not approved.",
    });
  });

  it('gives the callback the whole request', async () => {
    let seen: ApprovalRequest | undefined;
    await createCallbackApproval((req) => {
      seen = req;
      return true;
    }).request(request);
    expect(seen).toBe(request);
  });

  it('is denied by the dispatcher when the callback throws or answers nonsense', async () => {
    const dispatch = (fn: () => unknown) =>
      createDispatcher({
        execute: () => 'x',
        approval: createCallbackApproval(fn as () => boolean),
      })(request.call);
    expect(
      await dispatch(() => {
        throw new Error('ui crashed');
      }),
    ).toMatchObject({ status: 'denied', by: { kind: 'approval', name: 'callback' } });
    expect(await dispatch(() => 'yes please')).toMatchObject({ status: 'denied' });
  });

  it('gives the callback the call as a person must see it', async () => {
    let shown = '';
    const approval = createCallbackApproval((_request, question) => {
      shown = `${question.tool} ${question.arguments}`;
      return true;
    });
    await approval.request({
      ...request,
      call: {
        name: 'shell',
        arguments: { command: `status report${' '.repeat(600)}rm -rf /\u202e` },
      },
    });
    expect(shown).toBe('shell {"command":"status report⟨600 spaces⟩rm -rf /\\u202e"}');
  });

  it('denies arguments over the size without calling the callback, unless told to ask', async () => {
    const big = {
      ...request,
      call: { name: 'write_file', arguments: { content: 'x'.repeat(50) } },
    };
    let asked = 0;
    const fn = () => {
      asked += 1;
      return true;
    };
    expect(await createCallbackApproval(fn, { maxArgumentChars: 20 }).request(big)).toMatchObject({
      decision: 'deny',
      reason: expect.stringMatching(/field 'content' would be cut by \d+ of 50 characters/),
    });
    expect(asked).toBe(0);
    expect(
      await createCallbackApproval(fn, { maxArgumentChars: 20, oversize: 'ask' }).request(big),
    ).toBe('allow-once');
    expect(asked).toBe(1);
  });

  it('throws when fn is not a function', () => {
    expect(() => createCallbackApproval(undefined as unknown as () => boolean)).toThrow(
      /fn must be a function/,
    );
  });

  it('takes a name', () => {
    expect(createCallbackApproval(() => true, { name: 'slack' }).name).toBe('slack');
  });
});
