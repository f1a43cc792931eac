// Try a tool: a form generated from the tool's input schema. The call runs on the gateway
// through the same pipeline as a model's (guardrails, approval, audit), as the operator's.
import type { ConsoleTool } from '@tool-search/mcp-http';
import { post } from '../api.js';
import { h, json } from '../dom.js';

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
};

type Field = { name: string; read: () => { value?: unknown; error?: string } };

let fields = 0;

function typeOf(schema: Schema): string {
  return Array.isArray(schema.type) ? (schema.type[0] ?? '') : (schema.type ?? '');
}

/** One input for one property, by its schema: a select, a number, a text, or JSON. */
function field(
  name: string,
  schema: Schema,
  required: boolean,
): { node: HTMLElement; field: Field } {
  fields += 1;
  const id = `try-field-${fields}`;
  const type = typeOf(schema);
  const unset = required ? null : h('option', { value: '' }, '(not set)');
  let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  let read: Field['read'];
  if (Array.isArray(schema.enum)) {
    const values = schema.enum;
    input = h(
      'select',
      { id },
      unset,
      values.map((value, index) => h('option', { value: String(index) }, JSON.stringify(value))),
    );
    const select = input;
    read = () => (select.value === '' ? {} : { value: values[Number(select.value)] });
  } else if (type === 'boolean') {
    input = h(
      'select',
      { id },
      unset,
      h('option', { value: 'true' }, 'true'),
      h('option', { value: 'false' }, 'false'),
    );
    const select = input;
    read = () => (select.value === '' ? {} : { value: select.value === 'true' });
  } else if (type === 'number' || type === 'integer') {
    input = h('input', { id, type: 'number', step: type === 'integer' ? '1' : 'any' });
    const number = input;
    read = () => (number.value === '' ? {} : { value: Number(number.value) });
  } else if (type === 'string') {
    input = h('input', { id, type: 'text' });
    const text = input;
    read = () => (text.value === '' && !required ? {} : { value: text.value });
  } else {
    input = h('textarea', { id, rows: 3, placeholder: 'JSON' });
    const area = input;
    read = () => {
      if (area.value.trim() === '') return {};
      try {
        return { value: JSON.parse(area.value) as unknown };
      } catch {
        return { error: `${name} is not JSON.` };
      }
    };
  }
  if (required) input.setAttribute('required', '');
  const node = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, name, required ? ' (required)' : '', type ? ` · ${type}` : ''),
    input,
    schema.description ? h('div', { class: 'muted' }, schema.description) : null,
  );
  return { node, field: { name, read } };
}

/** The text of a tool result: its text parts, or the whole result as JSON. */
function resultText(result: { content?: { type: string; text?: string }[] }): string {
  const texts = (result.content ?? []).filter((part) => part.type === 'text');
  return texts.length > 0 ? texts.map((part) => part.text ?? '').join('\n') : json(result);
}

/** The form that tries `tool`, with where its result goes. */
export function tryForm(tool: ConsoleTool, say: (text: string) => void): HTMLElement {
  const schema = (tool.inputSchema ?? {}) as Schema;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const built = Object.entries(schema.properties ?? {}).map(([name, property]) =>
    field(name, property ?? {}, required.has(name)),
  );
  const outcome = h('div', { 'data-try-outcome': tool.name, 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', 'aria-label': `Run ${tool.name}` }, 'Run');
  return h(
    'form',
    {
      class: 'try',
      'data-try': tool.name,
      'aria-label': `Try ${tool.name}`,
      onsubmit: (event: Event) => {
        event.preventDefault();
        const args: Record<string, unknown> = {};
        for (const { field: entry } of built) {
          const read = entry.read();
          if (read.error !== undefined) {
            say(read.error);
            return;
          }
          if ('value' in read) args[entry.name] = read.value;
        }
        submit.disabled = true;
        outcome.replaceChildren(
          h('p', { class: 'muted' }, 'Running… (a call that needs approval waits in Approvals)'),
        );
        post<{ result: { isError?: boolean; content?: { type: string; text?: string }[] } }>(
          'tools/try',
          { tool: tool.name, arguments: args },
        )
          .then(({ result }) => {
            const failed = result.isError === true;
            outcome.replaceChildren(
              h(
                'p',
                {
                  class: failed ? 'status-tool_error' : 'status-ok',
                  'data-try-status': failed ? 'failed' : 'ok',
                },
                failed ? 'Failed (or denied):' : 'Result:',
              ),
              h('pre', { 'data-try-result': tool.name }, resultText(result)),
              h('p', { class: 'muted' }, 'Arguments as sent:'),
              h('pre', {}, json(args)),
            );
          })
          .catch((error: Error) =>
            outcome.replaceChildren(h('p', { role: 'alert' }, error.message)),
          )
          .finally(() => {
            submit.disabled = false;
          });
      },
    },
    h(
      'p',
      { class: 'muted' },
      'Runs on the gateway as your call, with the same guardrails, approval and audit as a model’s (route console).',
    ),
    built.map((entry) => entry.node),
    submit,
    outcome,
  );
}
