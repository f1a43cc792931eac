// The console's JSON API: the CSRF token of the sign-in goes with every change.

let csrf = '';

/** An API answer that was not 2xx, with the server's words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function parse<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new ApiError(response.status, body.error ?? response.statusText);
  return body as T;
}

/** GET /console/api/<path>. */
export async function get<T>(path: string): Promise<T> {
  return parse<T>(await fetch(`api/${path}`, { credentials: 'same-origin' }));
}

/** POST /console/api/<path> with a JSON body and the CSRF header. */
export async function post<T>(path: string, body: unknown = {}): Promise<T> {
  return parse<T>(
    await fetch(`api/${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(body),
    }),
  );
}

/** Remembers the sign-in's CSRF token. */
export function setCsrf(token: string): void {
  csrf = token;
}
