import type { UserConfig } from 'vitest/config';
export function packageTestConfig(test?: UserConfig['test']): UserConfig;
