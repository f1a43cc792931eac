/** A config file that cannot be used: its message is printed as is, exit code 2. */
export class ConfigFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigFileError';
  }
}
