/** The related-words table's text (see `related-words.cjs`). */
declare const text: string;
export = text;
