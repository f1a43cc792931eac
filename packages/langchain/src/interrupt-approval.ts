import { interrupt, isGraphInterrupt } from '@langchain/langgraph';
import { isRecord } from '@tool-search/core/internal';
import type {
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
} from '@tool-search/hooks';
import { renderApprovalQuestion } from '@tool-search/hooks';
import type { LangChainCallContext } from './call-dispatch.js';

/**
 * What the graph's interrupt carries (the `value` of the `Interrupt` in `__interrupt__`
 * of the graph's result or state): one call to approve, as it will run.
 */
export interface ToolApprovalInterrupt {
  /** Always `'tool_approval'`: tells these interrupts apart from your own. */
  type: 'tool_approval';
  /** The question for a person, one line: the tool and its arguments as they will run. */
  question: string;
  /** The real tool name. */
  tool: string;
  /** The arguments as JSON (cut fields marked; see `renderApprovalQuestion`). */
  arguments: string;
  /** How the model made the call: `'direct'` or `'bridge'` (through `tool_call`). */
  via: string;
  /** The id of the model's tool call, when known. */
  toolCallId?: string;
}

/**
 * What a person may answer, given to `new Command({ resume })`: a decision
 * (`'allow-once'`, `'allow-session'`, `'deny'`), `true` / `false`, or
 * `{ decision, reason? }`. Anything else denies.
 */
export type ToolApprovalResume =
  | ApprovalDecision
  | boolean
  | { decision: ApprovalDecision; reason?: string };

/** Options of {@link createInterruptApproval}. */
export interface InterruptApprovalOptions {
  /** The adapter's name, in denials and audit records. @defaultValue 'langgraph-interrupt' */
  name?: string;
  /** The most characters of arguments shown in the question. @defaultValue hooks' default */
  maxArgumentChars?: number;
}

const DECISIONS: ReadonlySet<string> = new Set(['allow-once', 'allow-session', 'deny']);

function answerOf(resume: unknown): ApprovalAnswer {
  if (resume === true) return { decision: 'allow-once' };
  if (typeof resume === 'string' && DECISIONS.has(resume)) {
    return { decision: resume as ApprovalDecision };
  }
  if (
    isRecord(resume) &&
    typeof resume['decision'] === 'string' &&
    DECISIONS.has(resume['decision'])
  ) {
    return {
      decision: resume['decision'] as ApprovalDecision,
      ...(typeof resume['reason'] === 'string' ? { reason: resume['reason'] } : {}),
    };
  }
  return { decision: 'deny', reason: 'The person did not approve the call.' };
}

/**
 * An approval adapter that asks a person through LangGraph's `interrupt()`: the graph
 * pauses (its result carries `__interrupt__` with a {@link ToolApprovalInterrupt}), and
 * `graph.invoke(new Command({ resume: 'allow-once' }), config)` on the same thread
 * resumes it; the tool runs again from the start, guardrails and hooks included, and the
 * approval gets the answer. The graph needs a checkpointer. Give it as the `approval`
 * of `withToolSearch` (alone, or as the `ask` of `createPolicyApproval` to ask only for
 * some tools). Outside a graph, and for a program's nested calls (a program cannot pause),
 * it denies: approvals fail closed.
 *
 * @example
 * ```ts
 * const search = withToolSearch(tools, { approval: createInterruptApproval() });
 * const agent = createAgent({ model, tools: search.tools, checkpointer: new MemorySaver() });
 * ```
 *
 * @param options - the adapter's name and the question's size
 * @returns the adapter
 * @throws nothing
 */
export function createInterruptApproval(options: InterruptApprovalOptions = {}): ApprovalAdapter & {
  name: string;
} {
  const name = options.name ?? 'langgraph-interrupt';
  return {
    name,
    async request(request: ApprovalRequest): Promise<ApprovalAnswer> {
      const context = request.context as (LangChainCallContext & { via?: string }) | undefined;
      if (request.via === 'program' || context?.suspension === undefined) {
        return {
          decision: 'deny',
          reason:
            request.via === 'program'
              ? `The call to '${request.call.name}' needs a person's approval, which a program cannot wait for: call the tool directly.`
              : `The call to '${request.call.name}' needs a person's approval, asked through LangGraph's interrupt(), which only a tool of withToolSearch run by a graph can ask.`,
        };
      }
      const question = renderApprovalQuestion(
        request.call,
        options.maxArgumentChars !== undefined
          ? { maxArgumentChars: options.maxArgumentChars }
          : {},
      );
      if (question.denial) return question.denial;
      const payload: ToolApprovalInterrupt = {
        type: 'tool_approval',
        question: `Allow ${question.tool}(${question.arguments})?${question.notice ? ` ${question.notice}` : ''}`,
        tool: question.tool,
        arguments: question.arguments,
        via: request.via ?? 'direct',
        ...(context.toolCallId !== undefined ? { toolCallId: context.toolCallId } : {}),
      };
      try {
        return answerOf(interrupt<ToolApprovalInterrupt, unknown>(payload));
      } catch (error) {
        // The graph pauses: the dispatch is cancelled, and the tool rethrows this error.
        if (isGraphInterrupt(error)) context.suspension.suspend(error);
        throw error;
      }
    },
  };
}
