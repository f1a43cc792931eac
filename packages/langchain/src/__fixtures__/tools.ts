import type { StructuredToolInterface } from '@langchain/core/tools';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';

/** What the fixture tools ran with, in order. */
export type Ran = { name: string; args: unknown }[];

/**
 * A catalog of LangChain tools: `read_file` (zod), `create_issue` and `delete_repo` (zod),
 * `get_weather` (a JSON Schema tool) and `count` filler tools that make the catalog big.
 */
export function fixtureTools(ran: Ran, filler = 0): StructuredToolInterface[] {
  const record = (name: string) => (args: unknown) => {
    ran.push({ name, args });
    return JSON.stringify({ ok: true, tool: name, args });
  };
  const tools: StructuredToolInterface[] = [
    tool(record('read_file'), {
      name: 'read_file',
      description: 'Read a file of the workspace.',
      schema: z.object({ path: z.string() }),
    }),
    tool(record('create_issue'), {
      name: 'create_issue',
      description: 'Create a GitHub issue in a repository with a title and a body.',
      schema: z.object({ repo: z.string(), title: z.string(), body: z.string().optional() }),
    }),
    tool(record('delete_repo'), {
      name: 'delete_repo',
      description: 'Delete a GitHub repository for good.',
      schema: z.object({ repo: z.string() }),
    }),
    tool(record('get_weather'), {
      name: 'get_weather',
      description: 'Get the weather forecast for a city, in degrees Celsius.',
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
        required: ['city'],
      },
    }),
  ];
  for (let index = 0; index < filler; index += 1) {
    tools.push(
      tool(record(`filler_${index}`), {
        name: `filler_${index}`,
        description: `Filler tool number ${index} that manages widgets of kind ${index} with many options.`,
        schema: z.object({
          widget: z.string(),
          size: z.number().optional(),
          note: z.string().optional(),
        }),
      }),
    );
  }
  return tools;
}
