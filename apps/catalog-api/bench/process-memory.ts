import { readFile } from 'node:fs/promises';

export interface ProcessMemory {
  /** Resident now: anonymous (heaps, SQLite page caches) plus file-backed (the mapped database). */
  rssBytes: number;
  anonymousBytes: number;
  fileBytes: number;
  /** The peak of rssBytes over the process's life (VmHWM). */
  peakRssBytes: number;
}

/** The memory of a process, its worker threads included, from /proc/<pid>/status. */
export async function processMemory(pid: number): Promise<ProcessMemory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return {
    rssBytes: kib('VmRSS'),
    anonymousBytes: kib('RssAnon'),
    fileBytes: kib('RssFile') + kib('RssShmem'),
    peakRssBytes: kib('VmHWM'),
  };
}
