import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The console's Content-Security-Policy: scripts, styles and connections only from the
 * gateway itself, no inline script or style, no frames, no plugins.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every console answer. */
export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': CONSOLE_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/** Whether the console is served over TLS (here, or by a proxy that says so). */
export function isSecure(req: IncomingMessage): boolean {
  return (
    (req.socket as { encrypted?: boolean }).encrypted === true ||
    req.headers['x-forwarded-proto'] === 'https'
  );
}

/**
 * Answers with JSON (never cached).
 *
 * @param res - the response
 * @param status - the HTTP status
 * @param body - the value to send
 * @param headers - more headers
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {
    ...securityHeaders(),
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/** Answers with an error the console shows: `{ error }`. */
export function sendError(res: ServerResponse, status: number, error: string): void {
  sendJson(res, status, { error });
}

/** The most bytes of a console request's body. */
const MAX_CONSOLE_BODY = 64 * 1024;

/**
 * Reads a JSON object body (`content-type: application/json` only, which a foreign page
 * cannot send without a preflight).
 *
 * @param req - the request
 * @returns the object, or undefined when the body is not a JSON object
 */
export async function readJsonBody(
  req: IncomingMessage,
): Promise<Record<string, unknown> | undefined> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_CONSOLE_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
