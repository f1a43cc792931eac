import { describe, expect, it } from 'vitest';
import { call, configOf, stateOf, tool } from './__fixtures__/call-state.js';
import { runBeforeHooks } from './step-before-call.js';
import { recheckGuardrails } from './step-guardrails.js';
import type { ToolCallHook } from './types.js';

const rename = (name: string): ToolCallHook => ({
  name: `rename-${name}`,
  beforeCall: (seen) => ({ call: { ...seen, name } }),
});

describe('runBeforeHooks', () => {
  it('leaves the state as it was when no hook answers anything', async () => {
    const state = stateOf();
    const next = await runBeforeHooks(
      state,
      configOf({ hooks: [{ name: 'quiet', beforeCall: () => undefined }, { name: 'none' }] }),
    );
    expect(next).toBe(state);
    expect(next.rewritten).toBe(false);
  });

  it('keeps the final rewrite, marks it, and looks up the renamed tool', async () => {
    const other = { ...tool, name: 'second', origin: { server: 'other', name: 'second' } };
    const names: string[] = [];
    const observer: ToolCallHook = {
      name: 'observer',
      beforeCall: (seen) => void names.push(seen.name),
    };
    const next = await runBeforeHooks(
      stateOf({ tool }),
      configOf({
        hooks: [rename('first'), observer, rename('second')],
        resolveTool: (name) => (name === 'second' ? other : undefined),
      }),
    );
    expect(names).toEqual(['first']);
    expect(next.call).toEqual({ ...call, name: 'second' });
    expect(next.tool).toBe(other);
    expect(next.rewritten).toBe(true);
    expect(next.result).toBeUndefined();
  });

  it('lets the guardrails refuse a rewrite when they check it again', async () => {
    const config = configOf({
      hooks: [rename('repo_delete')],
      guardrails: [
        {
          name: 'no-delete',
          check: (seen) =>
            seen.name === 'repo_delete' ? { allow: false, reason: 'no deleting' } : { allow: true },
        },
      ],
    });
    const rewritten = await runBeforeHooks(
      stateOf({ call: { name: 'read', arguments: {} } }),
      config,
    );
    expect((await recheckGuardrails(rewritten, config)).result).toEqual({
      status: 'denied',
      call: { name: 'repo_delete', arguments: {} },
      by: { kind: 'guardrail', name: 'no-delete' },
      reason: 'no deleting',
    });
  });

  it('denies a rewrite into a malformed call, naming the hook and the problem', async () => {
    const broken: ToolCallHook = {
      name: 'broken',
      beforeCall: () => ({ call: { name: '', arguments: {} } }),
    };
    const next = await runBeforeHooks(stateOf(), configOf({ hooks: [broken] }));
    expect(next.result).toEqual({
      status: 'denied',
      call,
      by: { kind: 'hook', name: 'broken' },
      reason:
        "Hook 'broken' rewrote the call to 'memory_delete_entities' into an invalid one (a call needs a non-empty string name), so it is denied.",
    });
  });

  it('reports the call before the rename when the renamed tool cannot be looked up', async () => {
    const next = await runBeforeHooks(
      stateOf(),
      configOf({
        hooks: [rename('other')],
        resolveTool: () => {
          throw new Error('registry offline');
        },
      }),
    );
    expect(next.result).toMatchObject({
      status: 'error',
      call,
      error: { code: 'tool_lookup_failed' },
    });
  });
});
