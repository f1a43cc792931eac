import { type Content, GoogleGenAI, type Tool } from '@google/genai';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import {
  answerGeminiToolSearch,
  dispatchGeminiFunctionCalls,
  dispatchGeminiInteractionCall,
  type GeminiInteractionTool,
  prepareGeminiInteractionTools,
  prepareGeminiTools,
} from './gemini.js';
import type { PreparedTools } from './plan.js';
import { type GeminiScriptedStep, type StandIn, startGeminiStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function start(steps: readonly GeminiScriptedStep[]) {
  standIn = await startGeminiStandIn({ steps });
  return new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: standIn.url } });
}

describe('prepareGeminiTools with the real @google/genai client (generateContent)', () => {
  it('bridge mode: search, describe and call reach the real tool through the one dispatcher', async () => {
    const prepared = await prepareGeminiTools(sessionTools, {
      bridge: assembleTools,
      config: { enabled: 'on' },
    });
    expect(prepared.mode).toBe('bridge');
    expect(prepared.tools[0]?.functionDeclarations.map((fn) => fn.name)).toEqual([
      'read_file',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    const ai = await start([
      { call: 'tool_search', input: { query: 'create a github issue' } },
      { call: 'tool_describe', input: { name: 'github.create_issue' } },
      {
        calls: [
          {
            call: 'tool_call',
            input: {
              name: 'github.create_issue',
              arguments: { repo: 'acme/app', title: 'Login fails' },
            },
          },
          {
            call: 'tool_call',
            input: { name: 'slack_post_message', arguments: { channel: '#ops', text: 'filed' } },
          },
        ],
      },
      { reply: 'Filed:' },
    ]);
    const runtime = createToolRuntime();
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'File the login bug.' }] }];
    let text = '';
    for (let turn = 0; turn < 6 && text === ''; turn += 1) {
      const response = await ai.models.generateContent({
        model: 'gemini-3.5-flash',
        contents,
        // `Type` of @google/genai is a string enum, which no plain value satisfies.
        config: { tools: prepared.tools as Tool[] },
      });
      const calls = response.functionCalls ?? [];
      if (calls.length === 0) {
        text = response.text ?? '';
        break;
      }
      contents.push(response.candidates![0]!.content!);
      const parts = await dispatchGeminiFunctionCalls(prepared, calls, runtime.dispatch, {
        bridge: handleBridgeCall,
      });
      contents.push({ role: 'user', parts });
    }
    expect(standIn!.violations).toEqual([]);
    expect(runtime.seen.hook.sort()).toEqual(['github.create_issue', 'slack_post_message']);
    expect(runtime.issues).toEqual([{ number: 1, repo: 'acme/app', title: 'Login fails' }]);
    expect(text).toContain('#ops');
    const describeAnswer = JSON.stringify(
      (standIn!.requests[2] as { contents: unknown[] }).contents.at(-1),
    );
    expect(describeAnswer).toContain('\\"name\\":\\"github.create_issue\\"');
  });

  it('a model turn rebuilt without its thought signatures is refused, as Gemini 3 refuses it', async () => {
    const prepared = await prepareGeminiTools(sessionTools, {
      bridge: assembleTools,
      config: { enabled: 'on' },
    });
    const ai = await start([{ call: 'tool_search', input: { query: 'slack' } }, { reply: 'done' }]);
    const config = { tools: prepared.tools as Tool[] };
    const response = await ai.models.generateContent({
      model: 'gemini-3.5-flash',
      contents: 'hi',
      config,
    });
    const calls = response.functionCalls ?? [];
    const parts = await dispatchGeminiFunctionCalls(prepared, calls, createToolRuntime().dispatch, {
      bridge: handleBridgeCall,
    });
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: calls.map((functionCall) => ({ functionCall })) },
      { role: 'user', parts },
    ];
    await expect(
      ai.models.generateContent({ model: 'gemini-3.5-flash', contents, config }),
    ).rejects.toThrow(/thought signature/);
  });

  it('a call of a function that was never declared is refused by the stand-in, as by the API', async () => {
    const prepared = await prepareGeminiTools(sessionTools, {
      bridge: assembleTools,
      config: { enabled: 'on' },
    });
    const ai = await start([
      { call: 'slack_post_message', input: { channel: '#ops', text: 'hi' } },
    ]);
    await expect(
      ai.models.generateContent({
        model: 'gemini-3.5-flash',
        contents: 'hi',
        config: { tools: prepared.tools as Tool[] },
      }),
    ).rejects.toThrow(/not declared/);
  });
});

type Step = {
  type: string;
  id: string;
  name: string;
  arguments: unknown;
  execution?: 'client' | 'server';
};

// One user turn in the Interactions API, the state kept by the platform.
async function interactionLoop(
  ai: GoogleGenAI,
  prepared: PreparedTools<GeminiInteractionTool>,
  runtime: ReturnType<typeof createToolRuntime>,
) {
  let previous: string | undefined;
  let input: unknown = 'File the login bug on acme/app.';
  for (let turn = 0; turn < 6; turn += 1) {
    const interaction = await ai.interactions.create({
      model: 'gemini-4-flash',
      input,
      // @google/genai 3.3 has no types for tool retrieval: our types, sent as they are.
      tools: prepared.tools,
      ...(previous === undefined ? {} : { previous_interaction_id: previous }),
    } as never);
    previous = interaction.id;
    const answers: unknown[] = [];
    for (const step of (interaction.steps ?? []) as unknown as Step[]) {
      if (step.type === 'tool_search_call' && step.execution === 'client') {
        answers.push(await answerGeminiToolSearch(prepared, step));
      }
      if (step.type === 'function_call') {
        answers.push(await dispatchGeminiInteractionCall(prepared, step, runtime.dispatch));
      }
    }
    if (answers.length === 0) return interaction.output_text ?? '';
    input = answers;
  }
  throw new Error('the loop did not end');
}

describe('prepareGeminiInteractionTools with the real @google/genai client (Interactions API)', () => {
  it('client mode (auto for a model with tool retrieval): our ranker answers the search, the model calls the real tool', async () => {
    const prepared = await prepareGeminiInteractionTools(sessionTools, {
      model: 'gemini-4-flash',
      config: { enabled: 'on' },
    });
    expect(prepared.mode).toBe('client');
    const ai = await start([
      { search: 'create an issue on github' },
      { call: 'github.create_issue', input: { repo: 'acme/app', title: 'Login fails' } },
      { reply: 'Filed:' },
    ]);
    const runtime = createToolRuntime();
    const text = await interactionLoop(ai, prepared, runtime);
    expect(standIn!.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['github.create_issue']);
    expect(text).toContain('"title":"Login fails"');
    const first = standIn!.requests[0] as {
      tools: { name?: string; type: string; defer_loading?: boolean }[];
    };
    expect(
      first.tools
        .filter((tool) => tool.defer_loading !== true)
        .map((tool) => tool.name ?? tool.type),
    ).toEqual(['read_file', 'tool_search']);
  });

  it('hosted mode: the platform searches, the same dispatcher runs the call', async () => {
    const prepared = await prepareGeminiInteractionTools(sessionTools, {
      mode: 'hosted',
      config: { enabled: 'on' },
    });
    const ai = await start([
      { search: 'slack message' },
      { call: 'slack_post_message', input: { channel: '#ops', text: 'Login fails' } },
      { reply: 'Posted:' },
    ]);
    const runtime = createToolRuntime();
    const text = await interactionLoop(ai, prepared, runtime);
    expect(standIn!.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['slack_post_message']);
    expect(text).toContain('#ops');
  });

  it('a search result naming a function that is not deferred is refused by the stand-in', async () => {
    const prepared = await prepareGeminiInteractionTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const ai = await start([{ search: 'github' }, { reply: 'done' }]);
    const first = await ai.interactions.create({
      model: 'gemini-4-flash',
      input: 'hi',
      tools: prepared.tools,
    } as never);
    const call = (first.steps ?? [])[0] as unknown as { id: string };
    const forged = { type: 'tool_search_result', call_id: call.id, tools: [{ name: 'read_file' }] };
    await expect(
      ai.interactions.create({
        model: 'gemini-4-flash',
        input: [forged],
        tools: prepared.tools,
        previous_interaction_id: first.id,
      } as never),
    ).rejects.toThrow(/not a deferred function/);
  });

  it('a call of a deferred function no search loaded is refused by the stand-in', async () => {
    const prepared = await prepareGeminiInteractionTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const ai = await start([
      { call: 'slack_post_message', input: { channel: '#ops', text: 'hi' } },
    ]);
    await expect(interactionLoop(ai, prepared, createToolRuntime())).rejects.toThrow(/not loaded/);
  });
});
