#!/usr/bin/env node
import { relaunchWithSmallYoungGeneration } from '../config/small-young-generation.ts';
import { runCli } from './main.ts';

relaunchWithSmallYoungGeneration();

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
