import { UsageError } from '../usage-error.ts';

/**
 * The password from ADMIN_PASSWORD, else from stdin (piped: the whole input less one trailing
 * newline; a terminal: one line typed without echo).
 */
export async function readPassword(
  fromEnv: string | undefined,
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<string> {
  if (fromEnv !== undefined) return fromEnv;
  const password = stdin.isTTY ? await readHidden(stdin) : await readAll(stdin);
  if (password === '') throw new UsageError('no password: pipe it on stdin or set ADMIN_PASSWORD');
  return password;
}

async function readAll(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function readHidden(stdin: NodeJS.ReadStream): Promise<string> {
  process.stderr.write('Password: ');
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new UsageError('cancelled'));
        if (char === '\u007f') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
