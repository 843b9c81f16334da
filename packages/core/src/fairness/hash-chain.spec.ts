import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical';
import { appendEvent, type EventEnvelope, eventHash, type HashedEventEnvelope, verifyChain } from './hash-chain';
import { commitmentOf } from './seeds';

const gameId = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const commitment = commitmentOf(Buffer.from([...Array(32).keys()]));

function buildChain(): HashedEventEnvelope[] {
  const specs: Array<Omit<EventEnvelope, 'prevHash' | 'command'>> = [
    { gameId, version: 1, type: 'GameCreated', seat: null, data: { ruleSet: 'farkle' }, rollNumber: null },
    {
      gameId,
      version: 2,
      type: 'PlayerJoined',
      seat: 0,
      data: { clientSeed: 'a', displayName: 'Zoë' },
      rollNumber: null,
    },
    {
      gameId,
      version: 3,
      type: 'PlayerJoined',
      seat: 1,
      data: { clientSeed: 'b', displayName: 'Bob' },
      rollNumber: null,
    },
    { gameId, version: 4, type: 'GameStarted', seat: null, data: { clientSeeds: ['a', 'b'] }, rollNumber: null },
    { gameId, version: 5, type: 'DiceRolled', seat: 0, data: { dice: [1, 2, 3, 4, 5] }, rollNumber: 0 },
    { gameId, version: 6, type: 'DiceRolled', seat: 0, data: { dice: [6, 6, 6] }, rollNumber: 1 },
    { gameId, version: 7, type: 'TurnBanked', seat: 0, data: { points: 700 }, rollNumber: null },
    { gameId, version: 8, type: 'DiceRolled', seat: 1, data: { dice: [2, 2, 3, 4, 6, 6] }, rollNumber: 2 },
  ];
  const out: HashedEventEnvelope[] = [];
  let prev = commitment;
  for (const s of specs) {
    // the first event of each "batch" carries its command (illustrative commands)
    const command =
      s.version === 1
        ? { type: 'create', ruleSet: 'farkle' }
        : s.type === 'DiceRolled'
          ? { type: 'play', move: { type: 'roll' } }
          : null;
    const e = appendEvent(prev, { ...s, command });
    out.push(e);
    prev = e.hash;
  }
  return out;
}

/** Re-links a tampered list the way a forger would (recomputing every hash after the change). */
function relink(events: EventEnvelope[]): HashedEventEnvelope[] {
  let prev = commitment;
  return events.map((e) => {
    const next = appendEvent(prev, { ...e });
    prev = next.hash;
    return next;
  });
}

const strip = ({ hash: _hash, ...rest }: HashedEventEnvelope): EventEnvelope => rest;

describe('eventHash', () => {
  it('is the SHA-256 hex of the canonical JSON of the eight envelope fields', () => {
    const e: EventEnvelope = {
      gameId,
      version: 1,
      type: 'T',
      seat: null,
      data: { b: 1, a: 'é' },
      rollNumber: null,
      command: { z: [1], type: 'c' },
      prevHash: commitment,
    };
    const expected = createHash('sha256')
      .update(
        `{"command":{"type":"c","z":[1]},"data":{"a":"é","b":1},"gameId":"${gameId}","prevHash":"${commitment}","rollNumber":null,"seat":null,"type":"T","version":1}`,
        'utf8',
      )
      .digest('hex');
    expect(eventHash(e)).toBe(expected);
    expect(eventHash({ ...e, command: null })).toBe(
      createHash('sha256')
        .update(
          `{"command":null,"data":{"a":"é","b":1},"gameId":"${gameId}","prevHash":"${commitment}","rollNumber":null,"seat":null,"type":"T","version":1}`,
          'utf8',
        )
        .digest('hex'),
    );
    expect(eventHash({ ...e, hash: 'ignored', extra: 1 } as EventEnvelope)).toBe(expected);
    expect(canonicalJson(e)).toContain('"prevHash"');
  });

  it('rejects malformed envelopes and non-integer payload numbers', () => {
    const e: EventEnvelope = {
      gameId,
      version: 1,
      type: 'T',
      seat: null,
      data: {},
      rollNumber: null,
      command: null,
      prevHash: commitment,
    };
    expect(() => eventHash({ ...e, version: 0 })).toThrow(/version/);
    expect(() => eventHash({ ...e, command: undefined } as unknown as EventEnvelope)).toThrow(/command/);
    expect(() => eventHash({ ...e, command: [] })).toThrow(/command/);
    expect(() => eventHash({ ...e, command: { n: 0.5 } })).toThrow(/non-integer/);
    expect(() => eventHash({ ...e, seat: -1 })).toThrow(/seat/);
    expect(() => eventHash({ ...e, rollNumber: 0.5 })).toThrow(/rollNumber/);
    expect(() => eventHash({ ...e, prevHash: commitment.toUpperCase() })).toThrow(/prevHash/);
    expect(() => eventHash({ ...e, data: [] as unknown as Record<string, unknown> })).toThrow(/data/);
    expect(() => eventHash({ ...e, data: { score: 1.5 } })).toThrow(/non-integer/);
  });
});

describe('verifyChain', () => {
  it('accepts an intact chain and returns its head', () => {
    const chain = buildChain();
    expect(verifyChain(commitment, chain)).toEqual({ ok: true, head: chain[chain.length - 1].hash, eventCount: 8 });
    expect(verifyChain(commitment, chain.map(strip))).toEqual({ ok: true, head: chain[7].hash, eventCount: 8 });
    expect(verifyChain(commitment, chain, { expectedHead: chain[7].hash, gameId })).toMatchObject({ ok: true });
    expect(verifyChain(commitment, [])).toEqual({ ok: true, head: commitment, eventCount: 0 });
  });

  it('survives a JSON round trip (as stored in a database or served in a bundle)', () => {
    const chain = JSON.parse(JSON.stringify(buildChain()));
    expect(verifyChain(commitment, chain)).toMatchObject({ ok: true });
  });

  it('detects a changed byte in any event', () => {
    const chain = buildChain();
    for (let i = 0; i < chain.length; i++) {
      const text = JSON.stringify(chain[i]);
      // change one character inside the payload: e.g. a digit or a letter of the data
      const at = text.indexOf('"data":') + 9;
      const ch = text[at];
      const forged = [...chain];
      forged[i] = JSON.parse(text.slice(0, at) + (ch === 'x' ? 'y' : 'x') + text.slice(at + 1));
      const res = verifyChain(commitment, forged);
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.version).toBe(i + 1);
    }
  });

  it('detects a changed payload even without stored hashes (via the next prevHash)', () => {
    const chain = buildChain().map(strip);
    chain[4] = { ...chain[4], data: { dice: [6, 6, 6, 6, 6] } };
    expect(verifyChain(commitment, chain)).toMatchObject({
      ok: false,
      version: 6,
      reason: expect.stringMatching(/prevHash/),
    });
  });

  it('detects a forged hash field', () => {
    const chain = buildChain();
    chain[2] = { ...chain[2], hash: chain[3].hash };
    expect(verifyChain(commitment, chain)).toMatchObject({
      ok: false,
      version: 3,
      reason: expect.stringMatching(/stored hash/),
    });
  });

  it('detects a removed event', () => {
    const chain = buildChain();
    const removed = [...chain.slice(0, 3), ...chain.slice(4)];
    expect(verifyChain(commitment, removed)).toMatchObject({ ok: false, version: 5, index: 3 });
    expect(verifyChain(commitment, chain.slice(1))).toMatchObject({ ok: false, index: 0 });
  });

  it('detects an inserted event', () => {
    const chain = buildChain();
    const extra = appendEvent(chain[2].hash, {
      gameId,
      version: 4,
      type: 'PlayerJoined',
      seat: 2,
      data: { clientSeed: 'c' },
      rollNumber: null,
      command: null,
    });
    const inserted = [...chain.slice(0, 3), extra, ...chain.slice(3)];
    expect(verifyChain(commitment, inserted)).toMatchObject({ ok: false, version: 4, index: 4 });
  });

  it('detects reordered events', () => {
    const chain = buildChain();
    const swapped = [...chain];
    [swapped[1], swapped[2]] = [swapped[2], swapped[1]];
    expect(verifyChain(commitment, swapped)).toMatchObject({ ok: false, index: 1 });
  });

  it('detects a chain not anchored at the commitment', () => {
    const other = commitmentOf(Buffer.alloc(32, 1));
    expect(verifyChain(other, buildChain())).toMatchObject({
      ok: false,
      version: 1,
      reason: expect.stringMatching(/commitment/),
    });
    expect(verifyChain('nope', buildChain())).toMatchObject({ ok: false, version: null });
  });

  it('detects events of another game', () => {
    const chain = buildChain().map(strip);
    chain[3] = { ...chain[3], gameId: '00000000-0000-4000-8000-000000000000' };
    expect(verifyChain(commitment, relink(chain))).toMatchObject({
      ok: false,
      version: 4,
      reason: expect.stringMatching(/gameId/),
    });
    expect(verifyChain(commitment, buildChain(), { gameId: '00000000-0000-4000-8000-000000000000' })).toMatchObject({
      ok: false,
      version: 1,
    });
  });

  it('detects a dropped or replayed roll even when the forger re-links the whole chain', () => {
    const chain = buildChain().map(strip);
    // drop the roll of version 6 (rollNumber 1) and renumber versions
    const dropped = [...chain.slice(0, 5), ...chain.slice(6)].map((e, i) => ({ ...e, version: i + 1 }));
    expect(verifyChain(commitment, relink(dropped))).toMatchObject({
      ok: false,
      version: 7,
      reason: expect.stringMatching(/rollNumber 2 where 1/),
    });
    // replay roll 0 in place of roll 1
    const replayed = chain.map((e) => (e.version === 6 ? { ...e, rollNumber: 0 } : e));
    expect(verifyChain(commitment, relink(replayed))).toMatchObject({
      ok: false,
      version: 6,
      reason: expect.stringMatching(/rollNumber 0 where 1/),
    });
  });

  it('supports events that consume several roll numbers via rollsInEvent', () => {
    const chain = buildChain().map(strip);
    const multi = chain.map((e) => (e.version === 8 ? { ...e, rollNumber: 2, data: { rolls: [[1], [2]] } } : e));
    multi.push({ ...multi[7], version: 9, rollNumber: 4, data: { dice: [1] } });
    const linked = relink(multi);
    expect(verifyChain(commitment, linked)).toMatchObject({ ok: false, version: 9 });
    const rollsInEvent = (e: EventEnvelope) =>
      e.rollNumber === null ? 0 : Array.isArray(e.data.rolls) ? e.data.rolls.length : 1;
    expect(verifyChain(commitment, linked, { rollsInEvent })).toMatchObject({ ok: true });
  });

  it('detects truncation only against a published head', () => {
    const chain = buildChain();
    const truncated = chain.slice(0, 6);
    expect(verifyChain(commitment, truncated)).toMatchObject({ ok: true, head: chain[5].hash });
    expect(verifyChain(commitment, truncated, { expectedHead: chain[7].hash })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/published head/),
    });
  });
});

describe('command in the envelope', () => {
  it('is covered by the hash: changing, adding or removing a command breaks the chain', () => {
    const chain = buildChain();
    const changed = [...chain];
    changed[4] = { ...chain[4], command: { type: 'play', move: { type: 'roll', hold: [0] } } };
    expect(verifyChain(commitment, changed)).toMatchObject({
      ok: false,
      version: 5,
      reason: expect.stringMatching(/stored hash/),
    });
    const removed = [...chain];
    removed[0] = { ...chain[0], command: null };
    expect(verifyChain(commitment, removed)).toMatchObject({ ok: false, version: 1 });
    const added = [...chain];
    added[1] = { ...chain[1], command: { type: 'join' } };
    expect(verifyChain(commitment, added)).toMatchObject({ ok: false, version: 2 });
  });
});
