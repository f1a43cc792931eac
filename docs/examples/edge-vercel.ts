/**
 * The handler of `edge.ts` as a Vercel edge function: in a Next.js app (app router), this
 * file is `app/api/agent/route.ts`.
 */
// #region vercel
export { answer as POST } from './edge.js';

// The edge runtime: Web APIs only, no code generation from strings, a fresh isolate per
// cold start. Nothing else changes.
export const runtime = 'edge';
// #endregion vercel
