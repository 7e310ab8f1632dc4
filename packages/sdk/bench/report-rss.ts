// Preloaded (`node --import`) into the bench's catalog-sync process, the built bin run as users run it:
// at exit, writes the process's peak RSS (getrusage: every thread included, and the image it replaced
// when it re-executed itself) to the file BENCH_RSS_FILE names. A file, not an inherited descriptor:
// process.execve closes every descriptor past stderr.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file === undefined || file === '') throw new Error('report-rss.ts needs BENCH_RSS_FILE');

process.on('exit', () => {
  writeFileSync(file, `${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
});
