import { describe, expect, it } from 'vitest';
import { readSilentAnswer } from '../src/auth/silent-answer.ts';

const answer = (query: Record<string, string>) =>
  new URL(`https://catalog.test/console/silent-callback?${new URLSearchParams(query)}`);

describe('a silent renewal accepts only the answer to its own request', () => {
  it('takes the code when the state is the one it sent', () => {
    expect(readSilentAnswer(answer({ code: 'c1', state: 's1' }), 's1')).toEqual({ kind: 'code', code: 'c1' });
  });

  it('refuses an answer whose state is not the one it sent, code or error', () => {
    expect(readSilentAnswer(answer({ code: 'c1', state: 's2' }), 's1').kind).toBe('failed');
    expect(readSilentAnswer(answer({ error: 'login_required' }), 's1').kind).toBe('failed');
  });

  it.each(['login_required', 'interaction_required', 'consent_required', 'account_selection_required'])(
    '%s means the administrator must sign in on the Sign in page',
    (error) => {
      expect(readSilentAnswer(answer({ error, state: 's1' }), 's1')).toEqual({ kind: 'sign-in-required' });
    },
  );

  it('any other error is a failed renewal, not a sign-out', () => {
    expect(readSilentAnswer(answer({ error: 'server_error', state: 's1' }), 's1')).toEqual({
      kind: 'failed',
      reason: 'server_error',
    });
  });
});
