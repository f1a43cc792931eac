import { renderApprovalQuestion, sanitizeTerminalText } from '@tool-search/hooks';
import { isCallToolResult } from './call-result.js';
import { tryStringify } from './serialisable-result.js';

/** How many rendered characters of a call's arguments the audit trail keeps. */
const ARGUMENT_CHARS = 2000;
/** How many characters of a call's result the audit trail keeps. */
const RESULT_CHARS = 500;

/**
 * What the audit trail keeps of a call when `console.callDetails` is on: its arguments
 * rendered as an approval question renders them (escaped, bounded, each cut marked) and
 * the start of its result, escaped the same way (controls, bidi, invisible characters).
 *
 * @param call - the final call
 * @param result - the tool's result, when it ran
 * @returns the texts
 * @throws nothing
 */
export function describeCallForAudit(
  call: { name: string; arguments: Record<string, unknown> },
  result: unknown,
): { shownArguments: string; resultExcerpt?: string } {
  const shownArguments = renderApprovalQuestion(call, {
    maxArgumentChars: ARGUMENT_CHARS,
    oversize: 'ask',
  }).arguments;
  if (result === undefined) return { shownArguments };
  let text: string;
  if (isCallToolResult(result)) {
    text = result.content
      .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
      .join('\n');
  } else {
    const json = tryStringify(result);
    text = json.ok ? json.text : '[a result that is not JSON]';
  }
  const head = sanitizeTerminalText(text.slice(0, RESULT_CHARS), { multiline: true });
  const cut = text.length - RESULT_CHARS;
  return {
    shownArguments,
    resultExcerpt: cut > 0 ? `${head}⟨${cut.toLocaleString('en-US')} characters cut⟩` : head,
  };
}
