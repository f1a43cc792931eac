import type { Interface } from 'node:readline';
import {
  type ApprovalOversize,
  type ApprovalQuestion,
  checkApprovalQuestionOptions,
  renderApprovalQuestion,
} from './approval-question.js';
import { sanitizeTerminalText } from './terminal-text.js';
import type { ApprovalAdapter, ApprovalAnswer, ApprovalRequest } from './types.js';

/** A readable stream that may be a terminal (`process.stdin`, or a stream in tests). */
export type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean };

/** A writable stream that may be a terminal (`process.stderr`, or a stream in tests). */
export type TerminalOutput = NodeJS.WritableStream & { isTTY?: boolean };

/** Options of {@link createTerminalApproval}. */
export interface TerminalApprovalOptions {
  /** Where answers are read. @defaultValue `process.stdin` */
  input?: TerminalInput;
  /** Where prompts are written. @defaultValue `process.stderr` (stdout may carry a protocol) */
  output?: TerminalOutput;
  /**
   * Whether a person is there to answer. @defaultValue `input.isTTY && output.isTTY`
   */
  tty?: boolean;
  /**
   * The most characters of arguments a prompt shows (see {@link renderApprovalQuestion}).
   * @defaultValue 4000
   */
  maxArgumentChars?: number;
  /**
   * What happens to a call whose arguments are longer: `'deny'` without asking, or
   * `'ask'` with a prompt that names each cut field and how much of it is cut.
   * @defaultValue `'deny'`
   */
  oversize?: ApprovalOversize;
  /** @defaultValue `'terminal'` */
  name?: string;
}

const safe = (text: string) => sanitizeTerminalText(text, { multiline: false });

function promptText(request: ApprovalRequest, question: ApprovalQuestion): string {
  const where = [
    request.via === 'bridge' ? 'via tool_call' : request.via === 'program' ? 'from a program' : '',
    request.sessionId ? `session ${safe(request.sessionId)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const choices = request.sessionId
    ? '[y] yes, once  [a] yes, for this session  [n] no (default)'
    : '[y] yes  [n] no (default)';
  return [
    '',
    `Tool call needs approval: ${question.tool}${where ? ` (${where})` : ''}`,
    `  arguments: ${question.arguments}`,
    ...(question.notice === undefined ? [] : [`  ${question.notice}`]),
    `Allow? ${choices}: `,
  ].join('\n');
}

/**
 * Creates an approval adapter that asks at the terminal: `y` allows the call once,
 * `a` allows the tool for the rest of the session (offered only when the call has a
 * session id), `n` or an empty line denies. Anything else is asked again.
 *
 * Prompts are queued, so concurrent calls never interleave: each waits for the one
 * before it. Lines typed while no prompt is showing are dropped, so an answer typed
 * ahead never approves a prompt the person has not seen. Names and arguments are shown
 * as {@link renderApprovalQuestion} renders them: whole up to `maxArgumentChars`, with
 * controls, bidi controls and invisible characters escaped and runs of whitespace shown
 * by their length; longer arguments are denied without a prompt (or, with `oversize:
 * 'ask'`, asked about with each cut named). When the request's signal aborts (the call is
 * cancelled or the approval times out), its prompt is withdrawn, or skipped if it is
 * still queued. With no TTY to ask on (for example when stdin carries MCP over stdio),
 * every request is denied with a reason saying so. Reading stops between prompts, so
 * an idle adapter does not keep the process alive.
 *
 * @param options.input - where answers are read
 * @param options.output - where prompts are written
 * @param options.tty - whether a person is there to answer
 * @param options.maxArgumentChars - the most characters of arguments shown
 * @param options.oversize - what happens to longer arguments
 * @param options.name - the adapter's name in denials
 * @returns an {@link ApprovalAdapter}
 * @throws `ToolSearchError` `invalid_argument` when `maxArgumentChars` is not a positive
 * integer or `oversize` is not `'deny'` or `'ask'`
 *
 * @example
 * ```ts
 * const dispatch = createDispatcher({ execute, approval: createTerminalApproval() });
 * // Tool call needs approval: github_delete_repository (via tool_call, session 7f3a)
 * //   arguments: {"owner":"octo","repo":"demo"}
 * // Allow? [y] yes, once  [a] yes, for this session  [n] no (default):
 * ```
 */
export function createTerminalApproval(options: TerminalApprovalOptions = {}): ApprovalAdapter {
  const name = options.name ?? 'terminal';
  const questionOptions = checkApprovalQuestionOptions(options, 'createTerminalApproval');
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let reader: Interface | undefined;
  let inputClosed = false;
  // The prompt on screen, if any: only it receives lines.
  let active: { line(line: string): void; closed(): void } | undefined;

  const streams = () => ({
    input: options.input ?? (process.stdin as TerminalInput),
    output: options.output ?? (process.stderr as TerminalOutput),
  });

  const open = async (input: TerminalInput): Promise<void> => {
    if (reader) return;
    const { createInterface } = await import('node:readline');
    const created = createInterface({
      input,
      terminal: false,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    created.on('line', (line) => active?.line(line));
    created.on('close', () => {
      // Closed by the input ending, not by release().
      if (reader !== created) return;
      reader = undefined;
      inputClosed = true;
      active?.closed();
    });
    reader = created;
    // Lines typed while nothing was asked are still buffered in the stream: let them
    // arrive (and be dropped) before the prompt shows, so that none answers it.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };

  const release = () => {
    waiting -= 1;
    if (waiting === 0 && reader) {
      const closing = reader;
      reader = undefined;
      closing.close();
    }
  };

  const ask = async (
    request: ApprovalRequest,
    question: ApprovalQuestion,
  ): Promise<ApprovalAnswer> => {
    const { input, output } = streams();
    const tool = request.call.name;
    if (!request.signal.aborted && !inputClosed) await open(input);
    if (request.signal.aborted) {
      return { decision: 'deny', reason: `The approval of '${tool}' was cancelled.` };
    }
    if (inputClosed) {
      return {
        decision: 'deny',
        reason: `The terminal input is closed, so no one can approve the call to '${tool}'.`,
      };
    }
    return new Promise<ApprovalAnswer>((resolve) => {
      const settle = (answer: ApprovalAnswer) => {
        active = undefined;
        request.signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = () => {
        output.write('\n(approval withdrawn: the call was cancelled or timed out)\n');
        settle({ decision: 'deny', reason: `The approval of '${tool}' was cancelled.` });
      };
      request.signal.addEventListener('abort', onAbort, { once: true });
      active = {
        closed: () =>
          settle({
            decision: 'deny',
            reason: `The terminal input closed before anyone approved the call to '${tool}'.`,
          }),
        line: (line) => {
          const answer = line.trim().toLowerCase();
          if (answer === 'y' || answer === 'yes') settle({ decision: 'allow-once' });
          else if ((answer === 'a' || answer === 'always') && request.sessionId) {
            settle({ decision: 'allow-session' });
          } else if (answer === '' || answer === 'n' || answer === 'no') {
            settle({ decision: 'deny', reason: `The user did not approve the call to '${tool}'.` });
          } else {
            output.write(
              request.sessionId ? 'Please answer y, a or n: ' : 'Please answer y or n: ',
            );
          }
        },
      };
      output.write(promptText(request, question));
    });
  };

  return {
    name,
    request(request) {
      const { input, output } = streams();
      const tty = options.tty ?? (input.isTTY === true && output.isTTY === true);
      if (!tty) {
        const which = input.isTTY === true ? 'the output' : 'the input';
        return {
          decision: 'deny',
          reason: `No one can approve the call to '${request.call.name}': ${which} is not a terminal (TTY). Run in a terminal, or configure another approval adapter.`,
        };
      }
      const question = renderApprovalQuestion(request.call, questionOptions);
      if (question.denial) return question.denial;
      waiting += 1;
      const turn = queue.then(() => ask(request, question)).finally(release);
      queue = turn.catch(() => {});
      return turn;
    },
  };
}
