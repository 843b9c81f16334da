import { isRuleError, type RuleError } from '../core/errors';
import { decideAccount, emptyAccount, evolveAccount } from './decide';
import type { AccountCommand, AccountState, Passkey } from './types';

const passkey = (id: string): Passkey => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  credentialId: `cred${id}`,
  name: `Key ${id}`,
  publicKey: 'pk',
  transports: ['internal'],
  deviceType: 'multiDevice',
  backedUp: true,
});

function run(commands: AccountCommand[], from: AccountState = emptyAccount('p')): AccountState {
  return commands.reduce((s, c) => {
    const events = decideAccount(s, c);
    if (isRuleError(events)) throw new Error(`${c.type}: ${events.code}`);
    return events.reduce(evolveAccount, s);
  }, from);
}

const code = (s: AccountState, c: AccountCommand) => (decideAccount(s, c) as RuleError).code;

describe('account decider', () => {
  it('claims a username in the allowed form only', () => {
    expect(run([{ type: 'claimUsername', username: 'Ada_L-1' }]).username).toBe('Ada_L-1');
    for (const bad of ['ab', 'a'.repeat(25), 'a b', 'ä12', 'a.b', ''])
      expect(code(emptyAccount('p'), { type: 'claimUsername', username: bad })).toBe('INVALID_USERNAME');
  });

  it('needs a username before any credential', () => {
    expect(code(emptyAccount('p'), { type: 'setPassword' })).toBe('USERNAME_REQUIRED');
    expect(code(emptyAccount('p'), { type: 'addPasskey', passkey: passkey('1') })).toBe('USERNAME_REQUIRED');
  });

  it('never removes the last credential', () => {
    const s = run([
      { type: 'claimUsername', username: 'ada' },
      { type: 'addPasskey', passkey: passkey('1') },
    ]);
    expect(code(s, { type: 'removePasskey', passkeyId: passkey('1').id })).toBe('LAST_CREDENTIAL');
    const withPassword = run([{ type: 'setPassword' }], s);
    const only = run([{ type: 'removePasskey', passkeyId: passkey('1').id }], withPassword);
    expect(only.passkeys).toEqual([]);
    expect(code(only, { type: 'removePassword' })).toBe('LAST_CREDENTIAL');
  });

  it('refuses duplicate passkeys, bad names, unknown ids and more than 20', () => {
    let s = run([
      { type: 'claimUsername', username: 'ada' },
      { type: 'addPasskey', passkey: passkey('1') },
    ]);
    expect(code(s, { type: 'addPasskey', passkey: { ...passkey('2'), credentialId: 'cred1' } })).toBe(
      'CREDENTIAL_ALREADY_REGISTERED',
    );
    expect(code(s, { type: 'addPasskey', passkey: { ...passkey('2'), name: ' ' } })).toBe('INVALID_CREDENTIAL_NAME');
    expect(code(s, { type: 'addPasskey', passkey: { ...passkey('2'), credentialId: 'not base64url!' } })).toBe(
      'INVALID_COMMAND',
    );
    expect(code(s, { type: 'renamePasskey', passkeyId: 'nope', name: 'x' })).toBe('CREDENTIAL_NOT_FOUND');
    expect(code(s, { type: 'renamePasskey', passkeyId: passkey('1').id, name: 'x'.repeat(65) })).toBe(
      'INVALID_CREDENTIAL_NAME',
    );
    for (let i = 2; i <= 20; i++)
      s = run([{ type: 'addPasskey', passkey: { ...passkey('1'), id: `id-${i}`, credentialId: `c${i}` } }], s);
    expect(s.passkeys).toHaveLength(20);
    expect(code(s, { type: 'addPasskey', passkey: { ...passkey('1'), id: 'id-21', credentialId: 'c21' } })).toBe(
      'PASSKEY_LIMIT_REACHED',
    );
  });

  it('renames with the name trimmed, and counts versions', () => {
    const s = run([
      { type: 'claimUsername', username: 'ada' },
      { type: 'addPasskey', passkey: passkey('1') },
      { type: 'renamePasskey', passkeyId: passkey('1').id, name: '  Phone ' },
    ]);
    expect(s.passkeys[0].name).toBe('Phone');
    expect(s.version).toBe(3);
  });
});
