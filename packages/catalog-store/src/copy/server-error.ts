/**
 * The server's error with what the copy was doing put first and the server's pointer to the data
 * after it (the COPY line, the duplicated key). Its code is kept: by it the write transaction tells
 * a server's refusal from a broken connection.
 */
export function whileDoing(doing: string, error: unknown): Error {
  const { where, detail, code } = error as { where?: string; detail?: string; code?: string };
  const message = error instanceof Error ? error.message : String(error);
  const pointer = [where, detail].filter((part) => part !== undefined).join('; ');
  return Object.assign(
    new Error(`${doing}: ${message}${pointer === '' ? '' : ` (${pointer})`}`, { cause: error }),
    {
      code,
    },
  );
}
