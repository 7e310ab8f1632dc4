#!/usr/bin/env node
import { relaunchWithMemorySettings } from '../config/memory-settings.ts';
import { runCli } from './main.ts';

relaunchWithMemorySettings();

runCli({ argv: process.argv.slice(2) }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `catalog-sync: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
