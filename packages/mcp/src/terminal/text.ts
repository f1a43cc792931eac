// One escaper for everything shown to a person: it lives beside the approval question
// in @tool-search/hooks, and the gateway's terminal output uses the same one.
export type { SanitizeTerminalTextOptions } from '@tool-search/hooks';
export { sanitizeTerminalText } from '@tool-search/hooks';
