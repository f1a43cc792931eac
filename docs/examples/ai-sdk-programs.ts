/**
 * Programs over tools in an AI SDK loop: `withToolSearch({ program })` adds
 * `tool_program`, and every call a program makes meets the setup's guardrails, hooks and
 * approvals, and the AI SDK's own approval policy, with `via: 'program'`. The model is the
 * scripted model of `@tool-search/ai-sdk/testing`, so that this runs without an API key.
 */
import { strict as assert } from 'node:assert';
import { toolSetFromDefinitions, withToolSearch } from '@tool-search/ai-sdk';
import { createScriptedModel } from '@tool-search/ai-sdk/testing';
import { createProgramPolicy, type ProgramResult } from '@tool-search/code';
import { type AuditRecord, createAuditHook } from '@tool-search/hooks';
import { generateText, stepCountIs } from 'ai';
import { tools as definitions } from './tools.js';

const tools = toolSetFromDefinitions(definitions, (call) =>
  call.name === 'github_list_pull_requests'
    ? [{ number: 7, title: `Fix the build of ${String(call.arguments['repo'])}` }]
    : { done: call.name, arguments: call.arguments },
);
const model = createScriptedModel([
  {
    tool: 'tool_program',
    input: {
      source: `
        const repos = ['web', 'api'];
        const lists = await Promise.all(repos.map((repo) => tools.github_list_pull_requests({ repo })));
        const merged = await Promise.all(repos.map(async (repo) => {
          try { await tools.github_merge_pull_request({ repo, number: '7' }); return repo + ': merged'; }
          catch (error) { return repo + ': ' + error.status; }
        }));
        return { open: lists.map((list) => list.length), merged };
      `,
    },
  },
  { text: 'Merged web; the merge of api was refused.' },
]);

const audit: AuditRecord[] = [];
// #region setup
const search = withToolSearch(tools, {
  core: ['read_file'],
  config: { enabled: 'on' },
  hooks: [createAuditHook((record) => void audit.push(record))],
  // AI SDK 7's toolApproval (and a tool's needsApproval): programs' calls meet it too.
  toolApproval: { github_merge_pull_request: 'user-approval' },
  program: {
    // Programs may call read-only tools (readOnlyHint) and, here, merge.
    policy: createProgramPolicy({ allow: ['github_merge_pull_request'] }),
    // Who is asked while a program waits; without it, a call that needs approval is denied.
    approval: {
      name: 'on-call',
      request: ({ call }) => (call.arguments['repo'] === 'web' ? 'allow-once' : 'deny'),
    },
  },
});
// #endregion setup

// #region run
// Spread it whole: with tool_program, and on AI SDK 7 its experimental_toolCallers too.
const result = await generateText({ model, ...search, stopWhen: stepCountIs(4), prompt: 'Merge' });
const output = result.steps[0]?.toolResults[0]?.output as ProgramResult;
console.log(output.result);
// { open: [ 1, 1 ], merged: [ 'web: merged', 'api: denied' ] }
console.log(audit.map((record) => `${record.tool} ${record.via} ${record.status}`));
// two 'github_list_pull_requests program ok', then one merge 'ok' and one 'denied'
await search.program?.close(); // the sandbox's worker threads
// #endregion run

assert.deepEqual(output.result, { open: [1, 1], merged: ['web: merged', 'api: denied'] });
assert.equal(result.text, 'Merged web; the merge of api was refused.');
assert.equal(audit.length, 4);
assert.ok(
  audit.every((record) => record.via === 'program' && record.programId === output.programId),
);
