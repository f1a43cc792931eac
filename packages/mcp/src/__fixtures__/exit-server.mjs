// An upstream that never starts: it explains itself on stderr and exits.
process.stderr.write('exit fixture: missing API key, giving up\n');
process.exit(3);
