import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_PROGRAM } from '@tool-search/code';
import type { DemoSession } from './demo-steps.js';
import { truncate } from './format.js';

/** The program scene 7 runs: a search, a fan-out of three calls, and a call policy stops. */
export const DEMO_PROGRAM = `const hits = await tools.search('sum of two numbers');
const pairs = [[1, 2], [3, 4], [5, 6]];
const sums = await Promise.all(pairs.map(([a, b]) => tools['get-sum']({ a, b })));
let env;
try { await tools['get-env']({}); env = 'ran'; } catch (error) { env = error.status; }
return {
  found: hits.slice(0, 3).map((hit) => hit.name),
  sums: sums.map((sum) => sum.content[0].text),
  env,
};`;

/**
 * One line of a program as the demo prints it: its own indentation kept, the rest cut to
 * the width.
 *
 * @param line - a line of the program's source
 * @param width - the widest line, in columns
 * @returns the line to print
 * @throws nothing
 */
export function programLine(line: string, width: number): string {
  const indent = /^[ \t]*/.exec(line)?.[0].replace(/\t/g, '  ') ?? '';
  const rest = line.trimStart();
  return rest === '' ? '' : `${indent}${truncate(rest, Math.max(1, width - indent.length))}`;
}

/** Scene 7: one tool_program call fans out over the tools, each call under the same policy. */
export async function showProgram(session: DemoSession): Promise<void> {
  const { printer } = session;
  const { style, print } = printer;
  printer.heading('7. tool_program: one program, many calls; each one meets the same policy');
  print();
  for (const line of DEMO_PROGRAM.split('\n')) print(style.dim(`    ${programLine(line, 100)}`));
  const updates: unknown[] = [];
  const result = (await session.client.callTool(
    { name: TOOL_PROGRAM, arguments: { source: DEMO_PROGRAM } },
    undefined,
    { onprogress: (update) => void updates.push(update) },
  )) as CallToolResult;
  const program = result.structuredContent as
    | { result?: unknown; calls?: { name: string; status: string }[] }
    | undefined;
  const mark = result.isError ? style.red('✗') : style.green('✓');
  print();
  const returned = program?.result;
  const entries =
    typeof returned === 'object' && returned !== null
      ? Object.entries(returned)
      : [['result', returned ?? null] as const];
  entries.forEach(([key, value], index) => {
    print(`    ${index === 0 ? mark : ' '} ${truncate(`"${key}":${JSON.stringify(value)}`, 96)}`);
  });
  const calls = (program?.calls ?? []).map((call) => `${call.name} ${call.status}`).join(', ');
  print(style.dim(`      ${updates.length} progress notifications; calls: ${truncate(calls, 80)}`));
}
