import type { ToolSet } from 'ai';
import { jsonSchema, tool } from 'ai';

/** A call as a fixture tool saw it: in its `needsApproval` or in its `execute`. */
export interface SeenCall {
  name: string;
  input: unknown;
}

type Properties = Record<string, { type: string }>;

/** What {@link approvalToolSet} records. */
export interface ApprovalLog {
  /** The inputs each `needsApproval` function was asked about, in order. */
  asked: SeenCall[];
  /** The inputs each tool ran with, in order. */
  ran: SeenCall[];
}

/**
 * A small tool set for approval checks: `read_file` (core, visible), and the deferrable
 * (`mcp`) tools `list_repos` (no approval), `delete_repo` (`needsApproval: true`) and
 * `transfer` (`needsApproval: (i) => i.amount > 100 || i.force === true`).
 */
export function approvalToolSet(log: ApprovalLog = { asked: [], ran: [] }): ToolSet {
  const make = (
    name: string,
    properties: Properties,
    required: string[],
    needsApproval?: boolean | ((input: Record<string, unknown>) => boolean),
  ) => {
    const value = tool({
      description: `The ${name.replace('_', ' ')} tool`,
      inputSchema: jsonSchema<Record<string, unknown>>({
        type: 'object',
        properties,
        required,
      } as never),
      execute: async (input: Record<string, unknown>) => {
        log.ran.push({ name, input });
        return { ran: name, input };
      },
    });
    const approval =
      typeof needsApproval === 'function'
        ? (input: Record<string, unknown>) => {
            log.asked.push({ name, input });
            return needsApproval(input);
          }
        : needsApproval;
    return Object.assign(value, {
      ...(approval !== undefined ? { needsApproval: approval } : {}),
      metadata: {
        toolSearch: { source: name === 'read_file' ? 'core' : 'mcp', toolset: 'mcp-repo' },
      },
    }) as ToolSet[string];
  };
  return {
    read_file: make('read_file', { path: { type: 'string' } }, ['path']),
    list_repos: make('list_repos', { owner: { type: 'string' } }, []),
    delete_repo: make('delete_repo', { repo: { type: 'string' } }, ['repo'], true),
    transfer: make(
      'transfer',
      { amount: { type: 'number' }, force: { type: 'boolean' } },
      ['amount'],
      (input) => (input['amount'] as number) > 100 || input['force'] === true,
    ),
  };
}
