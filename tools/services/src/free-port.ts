import { createServer } from 'node:net';

/**
 * Finds a free TCP port on 127.0.0.1 (the OS picks it; it is free when this returns).
 *
 * @returns the port
 * @throws an `Error` when the OS gives no TCP address
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}
