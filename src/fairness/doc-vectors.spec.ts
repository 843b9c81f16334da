/**
 * The test vectors live in docs/fairness.md, as literals meant for implementers of independent verifiers.
 * This spec parses them out of the document and recomputes every one, so the document cannot drift from the code.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from './canonical';
import { deriveDice, deriveDiceWithTrace, rollMessage, StreamParams } from './derivation';
import { envelopeFields, eventHash, HashedEventEnvelope, verifyChain } from './hash-chain';
import { commitmentOf } from './seeds';

const DOC_PATH = join(__dirname, '..', '..', 'docs', 'fairness.md');
const doc = readFileSync(DOC_PATH, 'utf8');

function blocks(kind: string): string[] {
  const out: string[] = [];
  for (const m of doc.matchAll(/^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    if (m[1].split(/\s+/).includes(kind)) out.push(m[2]);
  }
  return out;
}

interface RollVector {
  name: string;
  stream: StreamParams;
  commitment: string;
  count: number;
  rolls: Array<{ rollNumber: number; dice: number[] }>;
  outputs: Array<{ rollNumber: number; blockCounter: number; hex: string }>;
  rejected: Array<{ rollNumber: number; list: Array<{ blockCounter: number; index: number; byte: number }> }>;
}

function parseRollVector(text: string): RollVector {
  const kv = new Map<string, string>();
  const v: Partial<RollVector> = { rolls: [], outputs: [], rejected: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    let m: RegExpMatchArray | null;
    if ((m = line.match(/^roll (\d+): ([1-6](?: [1-6])*)$/))) {
      v.rolls!.push({ rollNumber: Number(m[1]), dice: m[2].split(' ').map(Number) });
    } else if ((m = line.match(/^output (\d+)\/(\d+): ([0-9a-f]{64})$/))) {
      v.outputs!.push({ rollNumber: Number(m[1]), blockCounter: Number(m[2]), hex: m[3] });
    } else if ((m = line.match(/^rejected (\d+): (.+)$/))) {
      const list = m[2] === 'none' ? [] : m[2].split(' ').map((item) => {
        const r = item.match(/^(\d+)\/(\d+)=(\d+)$/);
        if (!r) throw new Error(`bad rejected item ${item}`);
        return { blockCounter: Number(r[1]), index: Number(r[2]), byte: Number(r[3]) };
      });
      v.rejected!.push({ rollNumber: Number(m[1]), list });
    } else if ((m = line.match(/^(\w+): (.+)$/))) {
      kv.set(m[1], m[2]);
    } else {
      throw new Error(`unparsed vector line: ${line}`);
    }
  }
  const need = (k: string) => {
    const value = kv.get(k);
    if (value === undefined) throw new Error(`vector lacks ${k}`);
    return value;
  };
  return {
    ...(v as RollVector),
    name: need('name'),
    stream: { serverSeed: Buffer.from(need('serverSeed'), 'hex'), gameId: need('gameId'), clientSeeds: JSON.parse(need('clientSeeds')) },
    commitment: need('commitment'),
    count: Number(need('count')),
  };
}

const vectors = blocks('fairdice-roll-vector').map(parseRollVector);
const byName = new Map(vectors.map((v) => [v.name, v]));

describe('docs/fairness.md test vectors', () => {
  it('contains the expected vectors, with vector A holding the first 20 rolls of 5 dice as literals', () => {
    expect([...byName.keys()]).toEqual(['A', 'B', 'C', 'D']);
    const a = byName.get('A')!;
    expect(a.count).toBe(5);
    expect(a.rolls.map((r) => r.rollNumber)).toEqual([...Array(20).keys()]);
    for (const r of a.rolls) expect(r.dice).toHaveLength(5);
    expect(vectors.some((v) => v.rejected.some((r) => r.list.length > 0))).toBe(true);
  });

  describe.each(vectors.map((v) => [v.name, v] as const))('vector %s', (_name, v) => {
    it('has the stated commitment', () => {
      expect(v.stream.serverSeed).toHaveLength(32);
      expect(commitmentOf(v.stream.serverSeed)).toBe(v.commitment);
    });

    it('reproduces every roll', () => {
      expect(v.rolls.length).toBeGreaterThan(0);
      for (const r of v.rolls) {
        expect(r.dice).toHaveLength(v.count);
        expect({ rollNumber: r.rollNumber, dice: deriveDice({ ...v.stream, rollNumber: r.rollNumber, count: v.count }) }).toEqual(r);
      }
    });

    it('reproduces every stated HMAC output block and rejected byte', () => {
      for (const o of v.outputs) {
        const msg = rollMessage({ ...v.stream, rollNumber: o.rollNumber, blockCounter: o.blockCounter });
        expect(createHmac('sha256', v.stream.serverSeed).update(msg).digest('hex')).toBe(o.hex);
        const trace = deriveDiceWithTrace({ ...v.stream, rollNumber: o.rollNumber, count: v.count });
        expect(trace.blocks.find((b) => b.blockCounter === o.blockCounter)?.outputHex).toBe(o.hex);
      }
      for (const r of v.rejected) {
        expect(deriveDiceWithTrace({ ...v.stream, rollNumber: r.rollNumber, count: v.count }).rejected).toEqual(r.list);
      }
    });
  });

  it('has a correct annotated hex dump of a message', () => {
    const [dump] = blocks('fairdice-message-hexdump');
    expect(dump).toBeDefined();
    const header = new Map<string, string>();
    const bytes: number[] = [];
    for (const line of dump.split('\n')) {
      let m: RegExpMatchArray | null;
      if ((m = line.match(/^([0-9a-f]{4})  ((?:[0-9a-f]{2} ?)+?)\s*\| /))) {
        expect(parseInt(m[1], 16)).toBe(bytes.length);
        for (const h of m[2].trim().split(' ')) bytes.push(parseInt(h, 16));
      } else if ((m = line.match(/^(\w+): (.+)$/))) {
        header.set(m[1], m[2]);
      } else if (line.trim()) {
        throw new Error(`unparsed hex dump line: ${line}`);
      }
    }
    const v = byName.get(header.get('vector')!)!;
    const expected = rollMessage({ ...v.stream, rollNumber: Number(header.get('rollNumber')), blockCounter: Number(header.get('blockCounter')) });
    expect(Buffer.from(bytes).toString('hex')).toBe(expected.toString('hex'));
  });

  it('has a correct hash chain vector, anchored at vector A and carrying its dice', () => {
    const [chainText] = blocks('fairdice-chain-vector');
    const chain = JSON.parse(chainText) as { commitment: string; events: HashedEventEnvelope[]; head: string };
    const a = byName.get('A')!;
    expect(chain.commitment).toBe(a.commitment);
    expect(verifyChain(chain.commitment, chain.events, { expectedHead: chain.head, gameId: a.stream.gameId })).toEqual({
      ok: true,
      head: chain.head,
      eventCount: chain.events.length,
    });
    for (const e of chain.events) {
      expect(eventHash(e)).toBe(e.hash);
      if (e.rollNumber !== null) {
        const dice = e.data.dice as number[];
        expect(deriveDice({ ...a.stream, rollNumber: e.rollNumber, count: dice.length })).toEqual(dice);
      }
    }
    const [canonicalText] = blocks('fairdice-canonical-vector');
    expect(canonicalJson(envelopeFields(chain.events[1]))).toBe(canonicalText.trimEnd());
  });
});
