/**
 * Tool search on the edge: one handler, deployed as a Cloudflare Worker (this file) and
 * as a Vercel edge function (`edge-vercel.ts`). Both refuse code generation from strings and give a young process
 * per cold start: the libraries check arguments with their interpreting validator
 * there, and load nothing from the file system. The model is the scripted test model of
 * `@tool-search/ai-sdk/testing`, so that this runs without an API key: put
 * `openai('gpt-4.1')` or `anthropic('claude-sonnet-4-5')` there.
 */
import { toolSetFromDefinitions, withToolSearch } from '@tool-search/ai-sdk';
import { createScriptedModel } from '@tool-search/ai-sdk/testing';
import { generateText, stepCountIs } from 'ai';
import { tools as definitions } from './tools.js';

// #region handler
// Built once per isolate (a Worker's or an edge function's instance), reused by requests.
const tools = toolSetFromDefinitions(definitions, (call) => ({ ok: true, tool: call.name }));
const search = withToolSearch(tools, {
  core: ['read_file'], // your built-in tools: never deferred
  config: { enabled: 'on' },
  contextWindow: 128_000,
});

/** Answers `POST { prompt }` with the model's text and the tools it called. */
export async function answer(request: Request): Promise<Response> {
  const { prompt } = (await request.json()) as { prompt: string };
  const result = await generateText({
    model: createScriptedModel([
      { tool: 'tool_search', input: { query: 'create a github issue' } },
      { tool: 'tool_describe', input: { name: 'github_create_issue' } },
      { tool: 'github_create_issue', input: { repo: 'acme/app', title: 'Login fails' } },
      { text: 'Filed it.' },
    ]),
    ...search,
    stopWhen: stepCountIs(6),
    prompt,
  });
  return Response.json({
    text: result.text,
    calls: result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)),
  });
}
// #endregion handler

// #region worker
// Cloudflare Workers: `wrangler deploy` with `main` pointing here (no `nodejs_compat` needed).
export default { fetch: answer };
// #endregion worker
