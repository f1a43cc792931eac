/**
 * Tool search on Gemini: the bridge on `generateContent` (which has no deferral of its own)
 * and Gemini's tool retrieval in the Interactions API with our ranker answering in client
 * mode. The real `@google/genai` client talks to a local stand-in that checks every
 * request as the API does and plays the model, so this runs in CI without an API key; with
 * a key, use `new GoogleGenAI({ apiKey })` and drop the stand-in.
 */
import { strict as assert } from 'node:assert';
import { type Content, GoogleGenAI, type Tool } from '@google/genai';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createDispatcher } from '@tool-search/hooks';
import type { ProviderMode } from '@tool-search/providers';
import {
  answerGeminiToolSearch,
  dispatchGeminiFunctionCalls,
  dispatchGeminiInteractionCall,
  prepareGeminiInteractionTools,
  prepareGeminiTools,
} from '@tool-search/providers/gemini';
import { startGeminiStandIn } from '@tool-search/providers/testing';
import { tools } from './tools.js';

const seen: string[] = [];
const dispatch = createDispatcher({
  hooks: [{ name: 'audit', beforeCall: (call) => void seen.push(call.name) }],
  execute: async (call) => ({ number: 42, title: call.arguments['title'] }),
});

// #region gemini-bridge
async function fileIssue(ai: GoogleGenAI, model: string) {
  const prepared = await prepareGeminiTools(tools, {
    bridge: assembleTools, // generateContent has no deferral: the three bridge tools stand in
    contextWindow: 1_000_000,
    config: { enabled: 'on' },
  });
  const contents: Content[] = [
    { role: 'user', parts: [{ text: 'File an issue about the failing login on acme/app.' }] },
  ];
  for (;;) {
    const response = await ai.models.generateContent({
      model,
      contents,
      // Gemini's schema subset; `Type` of @google/genai is an enum no plain value satisfies.
      config: { tools: prepared.tools as Tool[] },
    });
    const calls = response.functionCalls ?? [];
    if (calls.length === 0) return { prepared, text: response.text ?? '' };
    contents.push(response.candidates![0]!.content!);
    // Every call of the turn, in parallel: the bridge tools answered by the bridge, each
    // real call (direct or unwrapped from tool_call) through the one dispatcher.
    const parts = await dispatchGeminiFunctionCalls(prepared, calls, dispatch, {
      bridge: handleBridgeCall,
    });
    contents.push({ role: 'user', parts });
  }
}
// #endregion gemini-bridge

// #region gemini-interactions
// @google/genai has no types for tool retrieval yet (preview): these are ours.
type Step = { type: string; id: string; name: string; arguments: unknown; execution?: string };

async function fileIssueInteractions(ai: GoogleGenAI, model: string, mode: ProviderMode) {
  const prepared = await prepareGeminiInteractionTools(tools, {
    model, // `auto` picks 'client' for a model with tool retrieval (gemini-3.6 and later)
    mode,
    contextWindow: 1_000_000,
    config: { enabled: 'on' },
  });
  let input: unknown = 'File an issue about the failing login on acme/app.';
  let previous: string | undefined;
  for (;;) {
    const interaction = await ai.interactions.create({
      model,
      input,
      tools: prepared.tools, // deferred functions carry defer_loading: true, plus tool_search
      ...(previous === undefined ? {} : { previous_interaction_id: previous }),
    } as never);
    previous = interaction.id;
    const answers: unknown[] = [];
    for (const step of (interaction.steps ?? []) as unknown as Step[]) {
      // Our ranker answers the platform's search; it loads the functions we name.
      if (step.type === 'tool_search_call' && step.execution === 'client') {
        answers.push(await answerGeminiToolSearch(prepared, step));
      }
      if (step.type === 'function_call') {
        answers.push(await dispatchGeminiInteractionCall(prepared, step, dispatch));
      }
    }
    if (answers.length === 0) return { prepared, text: interaction.output_text ?? '' };
    input = answers;
  }
}
// #endregion gemini-interactions

const issue = { repo: 'acme/app', title: 'Login', body: '500' };
{
  seen.length = 0;
  const standIn = await startGeminiStandIn({
    steps: [
      { call: 'tool_search', input: { query: 'create an issue on github' } },
      { call: 'tool_call', input: { name: 'github_create_issue', arguments: issue } },
      { reply: 'Filed:' },
    ],
  });
  const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: standIn.url } });
  const { prepared, text } = await fileIssue(ai, 'gemini-3.5-flash');
  await standIn.close();
  assert.deepEqual(standIn.violations, []);
  assert.deepEqual(seen, ['github_create_issue']);
  assert.match(text, /Filed:.*number\W+42/);
  console.log(`native-gemini: generateContent -> ${prepared.mode} (${prepared.reason})`);
}
for (const mode of ['auto', 'hosted'] as const) {
  seen.length = 0;
  const standIn = await startGeminiStandIn({
    steps: [
      { search: 'create an issue on github' },
      { call: 'github_create_issue', input: issue },
      { reply: 'Filed:' },
    ],
  });
  const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: standIn.url } });
  const { prepared, text } = await fileIssueInteractions(ai, 'gemini-4-flash', mode);
  await standIn.close();
  assert.deepEqual(standIn.violations, [], mode);
  assert.deepEqual(seen, ['github_create_issue']);
  assert.match(text, /Filed:.*number\W+42/);
  console.log(`native-gemini: interactions ${mode} -> ${prepared.mode} (${prepared.reason})`);
}
