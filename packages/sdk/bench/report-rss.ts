// Preloaded (`node --import`) into the bench's catalog-sync process, the built bin run as users run it:
// at exit, writes the process's peak RSS (getrusage: every thread included) to file descriptor 3.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(3, `${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
});
