import { sanitizeTerminalText } from '@tool-search/hooks';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module fixture without types
import { ESCAPES } from '../../../packages/mcp/src/__fixtures__/hostile-server.mjs';

/** Every character a terminal acts on, or that hides or reorders text. */
const DANGEROUS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/;

describe('sanitizeTerminalText', () => {
  it('shows escape sequences, C0/C1 controls and bidi overrides escaped instead of acting', () => {
    const safe = sanitizeTerminalText(`title${ESCAPES as string}end`);
    expect(safe).not.toMatch(DANGEROUS);
    expect(safe).toBe(
      'title\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x1b]8;;https://attacker.invalid\\x1b\\click' +
        '\\x1b]8;;\\x1b\\\\x9b31m\\u202eevil\\u202c\\u2066\\x08\\x00end',
    );
  });

  it('keeps line feeds and tabs, turns CRLF into LF, and escapes a lone carriage return', () => {
    expect(sanitizeTerminalText('a\tb\r\nc\rd\n')).toBe('a\tb\nc\\x0dd\n');
  });

  it('escapes the JSON way when asked, so that a JSON line stays JSON', () => {
    const line = JSON.stringify({ tool: 'a\u009b31m\u202eb\u{e0041}\u2028' });
    const safe = sanitizeTerminalText(line, { json: true });
    expect(safe).toBe('{"tool":"a\\u009b31m\\u202eb\\udb40\\udc41\\u2028"}');
    expect(JSON.parse(safe)).toEqual(JSON.parse(line));
  });

  it('puts multi-line text on one line when asked', () => {
    expect(sanitizeTerminalText('a\tb\nc', { multiline: false })).toBe('a b\\nc');
  });

  it('escapes invisible characters and Unicode tags but keeps ordinary text, emoji and joiners', () => {
    expect(sanitizeTerminalText('x\u200by\ufeff\u{e0041}')).toBe('x\\u200by\\ufeff\\u{e0041}');
    const text = 'Grüße, 東京, مرحبا, 👩‍💻 — ok';
    expect(sanitizeTerminalText(text)).toBe(text);
  });
});
