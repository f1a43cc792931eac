/** Options of {@link sanitizeTerminalText}. */
export interface SanitizeTerminalTextOptions {
  /**
   * Keep line breaks and tabs (for multi-line output). When false, a line break is
   * shown as `\n` and a tab as a space, so that the text stays on one line.
   * @defaultValue true
   */
  multiline?: boolean;
  /**
   * Escape as JSON does (`\u009b`, a tag character as its two `\udb40\udc41` halves), so
   * that a line of JSON stays valid JSON, e.g. a JSON line printed for a person.
   * @defaultValue false
   */
  json?: boolean;
}

// C0 controls but tab and line feed, DEL, C1 controls; bidi embeddings, overrides,
// isolates and marks; zero-width and invisible characters, line and paragraph
// separators, the BOM, and Unicode tag characters (invisible ASCII look-alikes).
// Zero-width (non-)joiners stay: scripts and emoji need them, and they hide nothing.
const UNSAFE =
  /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;

function jsonEscaped(character: string): string {
  let out = '';
  for (let index = 0; index < character.length; index += 1) {
    out += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
  }
  return out;
}

function escaped(character: string): string {
  if (character.length === 2 && character.charCodeAt(0) === 0xdb40) {
    return `\\u{${character.codePointAt(0)!.toString(16)}}`;
  }
  const code = character.charCodeAt(0);
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Makes text from an upstream (tool names and descriptions, stderr, error messages)
 * safe to print on a terminal: C0 and C1 control characters (so every ANSI CSI, OSC
 * and DCS sequence, whose introducer is ESC or a C1 control), bidi controls
 * (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), zero-width and other
 * invisible characters are shown escaped (`\x1b`, `\u202e`) instead of acting. The
 * rest of a sequence stays as plain text, so the operator sees what was sent. Line
 * feeds and tabs are kept (or flattened, see `options.multiline`); a carriage return
 * that ends a line (`\r\n`) becomes a line feed, a lone one is shown as `\x0d`.
 *
 * @param text - untrusted text
 * @param options.multiline - keep line breaks and tabs @defaultValue true
 * @param options.json - escape as JSON does, so that JSON text stays valid @defaultValue false
 * @returns the text with nothing in it that a terminal would act on
 * @throws nothing
 */
export function sanitizeTerminalText(
  text: string,
  options: SanitizeTerminalTextOptions = {},
): string {
  const multiline = options.multiline ?? true;
  const escapeOne = options.json === true ? jsonEscaped : escaped;
  const safe = String(text).replace(UNSAFE, (character) =>
    character === '\r\n' ? (options.json === true ? '\\r\\n' : '\n') : escapeOne(character),
  );
  if (options.json === true) return safe.replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return multiline ? safe : safe.replace(/\n/g, '\\n').replace(/\t/g, ' ');
}
