/** The related-words table's text (see `related-words.js`). */
declare const text: string;
export default text;
