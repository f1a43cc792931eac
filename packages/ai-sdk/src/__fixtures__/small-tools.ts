import type { ToolSet } from 'ai';
import { dynamicTool, jsonSchema } from 'ai';

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'archive', 'export'] as const;
const NOUNS = [
  'invoice',
  'customer',
  'order',
  'ticket',
  'report',
  'project',
  'task',
  'note',
  'label',
  'comment',
  'webhook',
  'team',
  'member',
  'budget',
  'asset',
  'event',
  'survey',
  'coupon',
  'shipment',
  'refund',
  'contract',
  'lead',
  'campaign',
  'segment',
  'device',
  'alert',
  'policy',
  'secret',
  'backup',
] as const;

/**
 * A new user's app: 202 small plugin tools (`get_invoice`, `list_customer`, ...), each a
 * one-line description and one or two string parameters. Their schemas come to just
 * under 10% of a 128k context window, the threshold of `auto`.
 */
export function smallToolSet(calls: string[] = []): ToolSet {
  const tools: ToolSet = {};
  for (const noun of NOUNS) {
    for (const verb of VERBS) {
      if (Object.keys(tools).length === 202) return tools;
      const name = `${verb}_${noun}`;
      tools[name] = dynamicTool({
        description: `${verb[0]!.toUpperCase()}${verb.slice(1)} one ${noun} of the workspace by its id; answers it as JSON, or why not.`,
        inputSchema: jsonSchema({
          type: 'object',
          properties: {
            id: { type: 'string', description: `The ${noun}'s id` },
            ...(verb === 'update'
              ? { fields: { type: 'string', description: 'JSON of the fields' } }
              : {}),
          },
          required: ['id'],
        }),
        execute: async (input) => {
          calls.push(name);
          return { ran: name, input };
        },
      });
    }
  }
  return tools;
}
