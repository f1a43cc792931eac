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

  it('throws when fn is not a function', () => {
    expect(() => createCallbackApproval(undefined as unknown as () => boolean)).toThrow(
      /fn must be a function/,
    );
  });

  it('takes a name', () => {
    expect(createCallbackApproval(() => true, { name: 'slack' }).name).toBe('slack');
  });
});
