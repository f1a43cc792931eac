import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import { createLearningSession, createSearchLearner } from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import {
  answerGeminiToolSearch,
  dispatchGeminiFunctionCall,
  dispatchGeminiInteractionCall,
  prepareGeminiInteractionTools,
  prepareGeminiTools,
} from './gemini.js';
import { readDeclarations } from './testing/gemini-rules.js';

const on = { config: { enabled: 'on' as const } };

describe('prepareGeminiTools', () => {
  it('below the threshold sends every tool as a declaration, converted to the schema subset', async () => {
    const prepared = await prepareGeminiTools(sessionTools, {
      bridge: assembleTools,
      config: { enabled: 'off' },
    });
    expect(prepared.mode).toBe('off');
    expect(prepared.bridge).toBeUndefined();
    const declarations = prepared.tools[0]!.functionDeclarations;
    expect(declarations.map((fn) => fn.name)).toEqual(sessionTools.map((tool) => tool.name));
    expect(declarations[1]!.parameters!.properties!['labels']).toEqual({
      type: 'ARRAY',
      items: { type: 'STRING' },
    });
  });

  it('refuses to prepare without the bridge: generateContent has no deferral of its own', async () => {
    await expect(prepareGeminiTools(sessionTools, {} as never)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('maps a name Gemini refuses and leaves a conforming dotted name as it is', async () => {
    const tools: ToolDefinition[] = [
      ...sessionTools,
      { name: 'weird name/with space', inputSchema: { type: 'object' }, source: 'core' },
    ];
    const prepared = await prepareGeminiTools(tools, {
      bridge: assembleTools,
      config: { enabled: 'off' },
    });
    const names = prepared.tools[0]!.functionDeclarations.map((fn) => fn.name);
    expect(names).toContain('github.create_issue');
    expect(names).toContain('weird_name_with_space');
    expect(prepared.names.fromProvider('weird_name_with_space')).toBe('weird name/with space');
  });
});

describe('Gemini names (hostile tool names)', () => {
  it('sends every name by Gemini rule, first character included, and maps each back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 140 }), { minLength: 1, maxLength: 8 }),
        async (raw) => {
          const tools: ToolDefinition[] = raw
            .filter((name) => !['tool_search', 'tool_describe', 'tool_call'].includes(name))
            .map((name) => ({ name, inputSchema: { type: 'object' }, source: 'core' }));
          const prepared = await prepareGeminiTools(tools, {
            bridge: assembleTools,
            config: { enabled: 'off' },
          });
          expect(readDeclarations(prepared.tools).problems).toEqual([]);
          for (const tool of tools) {
            expect(prepared.names.fromProvider(prepared.names.toProvider(tool.name))).toBe(
              tool.name,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('dispatchGeminiFunctionCall (hostile calls)', () => {
  it('refuses a name outside the session, and arguments that are not an object, before dispatch', async () => {
    const prepared = await prepareGeminiTools(sessionTools, {
      bridge: assembleTools,
      config: { enabled: 'off' },
    });
    const runtime = createToolRuntime();
    const unknown = await dispatchGeminiFunctionCall(
      prepared,
      { name: 'rm_rf', args: {} },
      runtime.dispatch,
    );
    expect(unknown.functionResponse.response['error']).toMatch(/not available in this session/);
    const bad = await dispatchGeminiFunctionCall(
      prepared,
      { name: 'slack_post_message', args: ['#ops'] },
      runtime.dispatch,
    );
    expect(bad.functionResponse.response['error']).toMatch(/not an object/);
    const bridge = await dispatchGeminiFunctionCall(
      prepared,
      { name: 'tool_call', args: {} },
      runtime.dispatch,
    );
    expect(bridge.functionResponse.response['error']).toMatch(/not available/);
    expect(runtime.seen.guardrail).toEqual([]);
  });

  it('in bridge mode, needs the bridge handler, and refuses a tool_call of a tool outside the session', async () => {
    const prepared = await prepareGeminiTools(sessionTools, { bridge: assembleTools, ...on });
    const runtime = createToolRuntime();
    const call = { name: 'tool_call', args: { name: 'rm_rf', arguments: {} }, id: 'c1' };
    await expect(
      dispatchGeminiFunctionCall(prepared, call, runtime.dispatch),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    const answer = await dispatchGeminiFunctionCall(prepared, call, runtime.dispatch, {
      bridge: handleBridgeCall,
    });
    expect(answer.functionResponse).toMatchObject({ name: 'tool_call', id: 'c1' });
    expect(answer.functionResponse.response['error']).toMatch(/not available in this session/);
    expect(runtime.seen.guardrail).toEqual([]);
  });

  it('in bridge mode, a visible tool runs directly and a deferred one by its own name is routed by the bridge', async () => {
    const prepared = await prepareGeminiTools(sessionTools, { bridge: assembleTools, ...on });
    const contexts: unknown[] = [];
    const dispatch = (call: { name: string }, context: unknown) => {
      contexts.push({ name: call.name, via: (context as { via: string }).via });
      return { status: 'ok', result: 'done', call };
    };
    await dispatchGeminiFunctionCall(
      prepared,
      { name: 'read_file', args: { path: 'a' } },
      dispatch,
    );
    await dispatchGeminiFunctionCall(
      prepared,
      { name: 'slack_post_message', args: { channel: '#ops', text: 'hi' } },
      dispatch,
      { bridge: handleBridgeCall },
    );
    expect(contexts).toEqual([
      { name: 'read_file', via: 'direct' },
      { name: 'slack_post_message', via: 'direct' },
    ]);
  });
});

describe('Gemini Interactions tool retrieval', () => {
  it('auto picks client for a model with tool retrieval and the bridge (or off) for one without', async () => {
    expect(
      (await prepareGeminiInteractionTools(sessionTools, { model: 'gemini-3.6-pro', ...on })).mode,
    ).toBe('client');
    const older = await prepareGeminiInteractionTools(sessionTools, {
      model: 'gemini-2.5-flash',
      bridge: assembleTools,
      ...on,
    });
    expect(older.mode).toBe('bridge');
    const warnings: string[] = [];
    const silent = await prepareGeminiInteractionTools(sessionTools, {
      model: 'gemini-2.5-flash',
      logger: { warn: (text: string) => void warnings.push(text) },
      ...on,
    });
    expect(silent.mode).toBe('off');
    expect(warnings).toHaveLength(1);
  });

  it('answers a search with deferred tools only, and nothing for a call without a query', async () => {
    const prepared = await prepareGeminiInteractionTools(sessionTools, { mode: 'client', ...on });
    const found = await answerGeminiToolSearch(prepared, {
      id: 's1',
      arguments: { query: 'read a file github slack' },
    });
    expect(found.tools.map((tool) => tool.name)).not.toContain('read_file');
    expect(found.tools.length).toBeGreaterThan(0);
    expect((await answerGeminiToolSearch(prepared, { id: 's2', arguments: '{' })).tools).toEqual(
      [],
    );
    await expect(
      answerGeminiToolSearch(prepared, { arguments: {} } as never),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('never names a tool that is not deferred in this preparation, whatever the query and limit', async () => {
    const prepared = await prepareGeminiInteractionTools(sessionTools, { mode: 'client', ...on });
    const deferred = new Set(prepared.deferred.map((name) => prepared.names.toProvider(name)));
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.anything(), async (query, limit) => {
        const found = await answerGeminiToolSearch(prepared, {
          id: 's',
          arguments: { query, limit },
        });
        expect(found.tools.length).toBeLessThanOrEqual(prepared.config.maxSearchLimit);
        for (const tool of found.tools) expect(deferred.has(tool.name)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('notes a search and the successful call after it in the session learning', async () => {
    const learner = createSearchLearner();
    const learning = createLearningSession({ learner });
    const prepared = await prepareGeminiInteractionTools(sessionTools, {
      mode: 'client',
      learning,
      ...on,
    });
    await answerGeminiToolSearch(prepared, {
      id: 's1',
      arguments: { query: 'open a ticket on github' },
    });
    const runtime = createToolRuntime();
    const result = await dispatchGeminiInteractionCall(
      prepared,
      { id: 'f1', name: 'github.create_issue', arguments: { repo: 'acme/app', title: 'x' } },
      runtime.dispatch,
    );
    expect(result).toMatchObject({
      type: 'function_result',
      call_id: 'f1',
      name: 'github.create_issue',
    });
    expect(result.is_error).toBeUndefined();
    await learning.flush();
    expect(learner.stats.recorded).toBe(1);
    expect([...(await learner.learnedTerms()).keys()]).toEqual(['github.create_issue']);
  });
});
