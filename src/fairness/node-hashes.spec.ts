import { randomBytes } from 'node:crypto';
import { NOBLE_HASHES } from '@fairdice/core/fairness/bytes';
import { diceRoller } from '@fairdice/core/fairness/derivation';
import { appendEvent } from '@fairdice/core/fairness/hash-chain';
import { NODE_HASHES } from './node-hashes';

describe('NODE_HASHES (node:crypto) against @noble/hashes', () => {
  it('hashes the same texts to the same hex, including non-ASCII and long ones', () => {
    const texts = ['', 'abc', 'Zoë 🎲 漢字', '"\\u0000', 'x'.repeat(10_000), '{"a":1}'.repeat(77)];
    for (const t of texts) expect(NODE_HASHES.sha256HexOfText(t)).toBe(NOBLE_HASHES.sha256HexOfText(t));
    // FIPS 180-2's example "abc", so both are SHA-256 and not merely equal to each other.
    expect(NODE_HASHES.sha256HexOfText('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('gives the same HMAC blocks, and keeps the key it was given', () => {
    for (let i = 0; i < 50; i++) {
      const key = randomBytes(32);
      const message = randomBytes(i * 7);
      const node = NODE_HASHES.keyedHmacSha256(key);
      const noble = NOBLE_HASHES.keyedHmacSha256(key);
      key.fill(0);
      expect(Buffer.from(node(message)).toString('hex')).toBe(Buffer.from(noble(message)).toString('hex'));
      expect(Buffer.from(node(message)).toString('hex')).toBe(Buffer.from(noble(message)).toString('hex'));
    }
  });

  it('rolls the same dice and chains the same event hashes as the defaults', () => {
    const stream = {
      serverSeed: randomBytes(32),
      clientSeeds: ['organizer-seed', 'alice-seed'],
      gameId: '0b6c1f9e-2d4b-4c8e-9a3f-1e2d3c4b5a69',
      firstRollNumber: 7,
    };
    const node = diceRoller(stream, NODE_HASHES);
    const noble = diceRoller(stream);
    for (let i = 0; i < 200; i++) expect(node.roll(1 + (i % 9))).toEqual(noble.roll(1 + (i % 9)));
    const event = {
      gameId: stream.gameId,
      version: 3,
      type: 'DiceRolled',
      seat: 0,
      data: { dice: [1, 6, 2], note: 'é' },
      rollNumber: 7,
      command: { type: 'roll', hold: [] },
    };
    expect(appendEvent('a'.repeat(64), event, NODE_HASHES)).toEqual(appendEvent('a'.repeat(64), event));
  });
});
