import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SignInStore, StoredSignIn } from './credentials.js';

/**
 * The file name of a key: only letters, digits, `-`, `_` and `.` stay; anything else is
 * written as `%XX`, so that two keys never share a file and no key leaves the folder.
 */
function fileName(key: string): string {
  const safe = [...key]
    .map((char) =>
      /[A-Za-z0-9_.-]/.test(char) && char !== '.'
        ? char
        : [...Buffer.from(char)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    )
    .join('');
  return `${safe}.json`;
}

/**
 * A {@link SignInStore} in a folder of the gateway's state: one JSON file a sign-in,
 * owner-only (`0600`, the folder `0700`), written whole through a rename so that a crash
 * never leaves half a file.
 *
 * @param folder - the folder (created on the first save)
 * @returns the store
 * @throws nothing when made; `save` throws the file system's error
 */
export function createFileSignInStore(folder: string): SignInStore {
  return {
    async load(key) {
      try {
        const text = await readFile(join(folder, fileName(key)), 'utf8');
        const record = JSON.parse(text) as StoredSignIn;
        return record.version === 1 ? record : undefined;
      } catch {
        return undefined;
      }
    },
    async save(key, record) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await chmod(folder, 0o700).catch(() => {});
      const path = join(folder, fileName(key));
      const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: 'wx' });
      await rename(temporary, path);
    },
    async delete(key) {
      const path = join(folder, fileName(key));
      try {
        await readFile(path);
      } catch {
        return false;
      }
      await rm(path, { force: true });
      return true;
    },
  };
}
