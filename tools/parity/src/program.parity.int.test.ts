// The parity property for programs (@tool-search/code): a call made from inside a
// tool_program program, with the arguments as the model wrote them, meets the policy of
// the same call made directly, on the same final arguments. Then the same over a real MCP
// server: a program fans out calls to an upstream over stdio, each one decided on its own.
import { fileURLToPath } from 'node:url';
import { createProgramTool } from '@tool-search/code';
import { type AuditRecord, createAuditHook, createDispatcher } from '@tool-search/hooks';
import { createUpstreamPool, type UpstreamPool } from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiSdkProgram } from './ai-sdk-program-surface.js';
import { aiSdkReference, direct } from './library-surfaces.js';
import {
  callArbitrary,
  createRecorder,
  type ParityWorld,
  policyOf,
  worldArbitrary,
} from './model.js';
import { createProgramSurface } from './program-surface.js';

const scenario = worldArbitrary.chain((world) =>
  fc.record({ world: fc.constant(world), call: callArbitrary(world) }),
);

describe('parity: programs', () => {
  const { surface, program } = createProgramSurface();
  afterAll(() => program.close());

  it('a call from a program meets the policy of a direct call, on the same final arguments', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ world, call }) => {
        expect(await surface(world, call)).toEqual(await direct(world, call));
      }),
      { numRuns: 80 },
    );
  });
});

describe('programs over a real MCP server', () => {
  const world: ParityWorld = {
    tools: [
      {
        definition: {
          name: 'ledger_lookup',
          description: 'Look up one ledger entry by number.',
          inputSchema: {
            type: 'object',
            properties: { count: { type: 'integer' }, amount: { type: 'number' } },
            required: ['count'],
          },
          source: 'mcp',
        },
        properties: ['count', 'amount'],
        required: ['count'],
      },
    ],
    policies: [{ denied: false, approvalLimit: 100 }],
  };
  let pool: UpstreamPool;
  beforeAll(async () => {
    pool = createUpstreamPool(
      parseGatewayConfig({
        mcpServers: {
          ledger: {
            command: process.execPath,
            args: [fileURLToPath(new URL('./__fixtures__/echo-server.mjs', import.meta.url))],
            env: { PARITY_TOOLS: JSON.stringify(world.tools.map((tool) => tool.definition)) },
          },
        },
      }),
    );
    await pool.start();
  });
  afterAll(() => pool.close());

  it('fans out twenty calls in one program, each approved on its own, each reaching the upstream with its final arguments', async () => {
    const recorder = createRecorder();
    const policy = policyOf(world, recorder);
    const audit: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: (call, { signal }) => pool.callTool(call.name, call.arguments, { signal }),
      resolveTool: (name) => pool.tools().find((tool) => tool.name === name),
      guardrails: [policy.guardrail],
      approval: policy.approval,
      hooks: [createAuditHook((record) => void audit.push(record))],
    });
    const program = createProgramTool({
      tools: () => pool.tools(),
      dispatch,
      poolSize: 1,
      limits: { maxWrites: 20 },
    });
    try {
      const tool = pool.tools()[0]!.name;
      const result = await program.run({
        source: `
          const numbers = Array.from({ length: 20 }, (_, index) => index);
          const settled = await Promise.allSettled(
            numbers.map((count) => tools.call(${JSON.stringify(tool)}, { count: String(count), amount: count * 10 })),
          );
          return settled.map((entry) =>
            entry.status === 'fulfilled' ? JSON.parse(entry.value.content[0].text).arguments.count : entry.reason.status,
          );
        `,
      });
      expect(result.error).toBeUndefined();
      // Amounts above the approval limit (100) are denied; the rest ran, with integers.
      expect(result.result).toEqual(
        Array.from({ length: 20 }, (_, count) => (count * 10 > 100 ? 'denied' : count)),
      );
      expect(recorder.asked).toHaveLength(20);
      expect(
        recorder.asked.map((call) => call.arguments['count']).sort((a, b) => Number(a) - Number(b)),
      ).toEqual(Array.from({ length: 20 }, (_, count) => count));
      expect(audit).toHaveLength(20);
      expect(new Set(audit.map((record) => `${record.via} ${record.tool}`))).toEqual(
        new Set([`program ${tool}`]),
      );
    } finally {
      await program.close();
    }
  });
});

describe('parity: programs through the AI SDK adapter', () => {
  it('a call from a program asks and runs what a direct call through the adapter would, on the same final arguments', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ world, call }) => {
        const expected = await aiSdkReference(world, call);
        // A call a guardrail denies is denied before the approval step: inside a program
        // the person is not asked about it (the AI SDK asks before anything runs).
        if (expected.by?.startsWith('guardrail:')) delete expected.native;
        expect(await aiSdkProgram(world, call)).toEqual(expected);
      }),
      { numRuns: 20 },
    );
  });
});
