/**
 * The platforms' own programmatic tool calling (Anthropic's code execution with
 * `allowed_callers`, OpenAI's `programmatic_tool_calling`), with our program policy: the
 * same policy sets `allowed_callers` and refuses nested calls in the dispatcher, and every
 * nested call reaches the dispatcher with `via: 'program'`. The real SDK clients talk to
 * local stand-ins that replay these shapes, so this runs without an API key.
 */
import { strict as assert } from 'node:assert';
import Anthropic from '@anthropic-ai/sdk';
import { createProgramPolicy } from '@tool-search/code';
import { type AuditRecord, createAuditHook, createDispatcher } from '@tool-search/hooks';
import {
  createAnthropicProgramState,
  dispatchAnthropicToolUse,
  prepareAnthropicTools,
} from '@tool-search/providers/anthropic';
import {
  createOpenAIProgramState,
  dispatchOpenAIFunctionCall,
  prepareOpenAIResponsesTools,
} from '@tool-search/providers/openai';
import {
  type ScriptedStep,
  startAnthropicStandIn,
  startOpenAIStandIn,
} from '@tool-search/providers/testing';
import OpenAI from 'openai';
import { tools } from './tools.js';

// #region policy
// One policy object, two uses: the preparation reads it to set allowed_callers, the
// dispatcher enforces it on every nested call (allowed_callers is no security boundary).
const policy = createProgramPolicy(); // read-only tools (readOnlyHint) by default
const audit: AuditRecord[] = [];
const auditHook = createAuditHook((record) => void audit.push(record));
const dispatch = createDispatcher({
  execute: (call) => [{ number: 7, title: `Fix the build of ${String(call.arguments['repo'])}` }],
  resolveTool: (name) => tools.find((tool) => tool.name === name), // annotations for the policy
  guardrails: [policy],
  hooks: [auditHook],
});
// #endregion policy

// #region anthropic-programs
async function anthropicTurn(client: Anthropic, messages: Anthropic.MessageParam[]) {
  const prepared = await prepareAnthropicTools(tools, {
    model: 'claude-sonnet-5-5',
    programmatic: { policy }, // allowed_callers on the tools it allows, and code_execution_20260120
  });
  const programs = createAnthropicProgramState(); // the container and the programs seen
  for (;;) {
    const message = await client.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      tools: prepared.tools,
      messages,
      ...programs.requestFields(), // { container } once a program ran: it goes back
    });
    programs.observe(message);
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') return message;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      // caller direct: via 'direct'; caller code_execution_20260120: via 'program' and its
      // programId; a forged or unoffered caller: refused (is_error), never run.
      results.push(
        await dispatchAnthropicToolUse(prepared, block, dispatch, {
          state: programs,
          audit: auditHook,
        }),
      );
    }
    messages.push({ role: 'user', content: results });
  }
}
// #endregion anthropic-programs

// #region openai-programs
async function openaiTurn(client: OpenAI, input: OpenAI.Responses.ResponseInputItem[]) {
  const prepared = await prepareOpenAIResponsesTools(tools, {
    model: 'gpt-5.5',
    programmatic: { policy }, // allowed_callers: ['direct', 'programmatic'], never strict
  });
  const programs = createOpenAIProgramState(); // the program items and their fingerprints
  for (;;) {
    const response = await client.responses.create({
      model: 'gpt-5.5',
      input,
      tools: prepared.tools,
    });
    programs.observe(response.output);
    // Program items go back as they came, fingerprint and all (the SDK types an output
    // item apart from an input item; the Responses API takes it back as it is).
    input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) return response;
    for (const item of calls) {
      // The output of a program's call carries its caller back to the program.
      input.push(
        await dispatchOpenAIFunctionCall(prepared, item, dispatch, {
          state: programs,
          audit: auditHook,
        }),
      );
    }
  }
}
// #endregion openai-programs

const steps: ScriptedStep[] = [
  {
    program: [
      { call: 'github_list_pull_requests', input: { repo: 'acme/app' } },
      { call: 'github_list_pull_requests', input: { repo: 'acme/api' } },
    ],
  },
  { reply: 'Open pull requests:' },
];

const anthropicStandIn = await startAnthropicStandIn({ steps });
const message = await anthropicTurn(
  new Anthropic({ baseURL: anthropicStandIn.url, apiKey: 'test' }),
  [{ role: 'user', content: 'Which pull requests are open on acme/app and acme/api?' }],
);
await anthropicStandIn.close();
assert.deepEqual(anthropicStandIn.violations, []);
assert.match(JSON.stringify(message.content), /Fix the build of acme\/api/);

const openaiStandIn = await startOpenAIStandIn({ steps });
const response = await openaiTurn(
  new OpenAI({ baseURL: `${openaiStandIn.url}/v1`, apiKey: 'test' }),
  [{ role: 'user', content: 'Which pull requests are open on acme/app and acme/api?' }],
);
await openaiStandIn.close();
assert.deepEqual(openaiStandIn.violations, []);
assert.match(response.output_text, /Fix the build of acme\/app/);

assert.deepEqual(
  audit.map((record) => [record.tool, record.via, record.status]),
  Array(4).fill(['github_list_pull_requests', 'program', 'ok']),
);
console.log(
  `platform-programs: ${audit.length} nested calls, each through the dispatcher with via 'program'`,
);
