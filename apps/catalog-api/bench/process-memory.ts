import { readFile } from 'node:fs/promises';

/** Resident set size of a process (its worker threads included), now and at its peak, in bytes. */
export async function processMemory(pid: number): Promise<{ rssBytes: number; peakRssBytes: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM') };
}
