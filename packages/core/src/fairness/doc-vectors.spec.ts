/**
 * The test vectors live in docs/fairness.md, as literals meant for implementers of independent verifiers.
 * This spec parses them out of the document and recomputes every one, so the document cannot drift from the code.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from './canonical';
import { deriveDice, deriveDiceWithTrace, rollMessage, type StreamParams } from './derivation';
import { envelopeFields, eventHash, type HashedEventEnvelope, verifyChain } from './hash-chain';
import { commitmentOf } from './seeds';
import type { AuditBundle } from './audit-bundle';
import { simulateGame } from './bundle-fixtures';
import { verifyBundle } from './verifier';
import { asFamilyEvent, decideGame, emptyGame, evolveGame, type GameCommand } from '../rules/game';
import { familyById } from '../rules/registry';
import {
  consistencyProof,
  encodeLeaf,
  encodeTreeHead,
  fromHex,
  inclusionProof,
  leafHash,
  logIdOf,
  type LogLeaf,
  logPublicKey,
  merkleRoot,
  signTreeHead,
  toHex,
  verifyConsistency,
  verifyInclusion,
  verifyTreeHeadSignature,
} from './transparency-log';

const DOC_PATH = join(__dirname, '..', '..', '..', '..', 'docs', 'fairness.md');
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
      const list =
        m[2] === 'none'
          ? []
          : m[2].split(' ').map((item) => {
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
    stream: {
      serverSeed: Buffer.from(need('serverSeed'), 'hex'),
      gameId: need('gameId'),
      clientSeeds: JSON.parse(need('clientSeeds')),
    },
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
        expect({
          rollNumber: r.rollNumber,
          dice: deriveDice({ ...v.stream, rollNumber: r.rollNumber, count: v.count }),
        }).toEqual(r);
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
      if ((m = line.match(/^([0-9a-f]{4}) {2}((?:[0-9a-f]{2} ?)+?)\s*\| /))) {
        expect(parseInt(m[1], 16)).toBe(bytes.length);
        for (const h of m[2].trim().split(' ')) bytes.push(parseInt(h, 16));
      } else if ((m = line.match(/^(\w+): (.+)$/))) {
        header.set(m[1], m[2]);
      } else if (line.trim()) {
        throw new Error(`unparsed hex dump line: ${line}`);
      }
    }
    const v = byName.get(header.get('vector')!)!;
    const expected = rollMessage({
      ...v.stream,
      rollNumber: Number(header.get('rollNumber')),
      blockCounter: Number(header.get('blockCounter')),
    });
    expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(expected).toString('hex'));
  });

  it('has a correct hash chain vector, anchored at vector A, carrying its dice and re-runnable by the rules', () => {
    const [chainText] = blocks('fairdice-chain-vector');
    const chain = JSON.parse(chainText) as { commitment: string; events: HashedEventEnvelope[]; head: string };
    const a = byName.get('A')!;
    expect(chain.commitment).toBe(a.commitment);
    expect(verifyChain(chain.commitment, chain.events, { expectedHead: chain.head, gameId: a.stream.gameId })).toEqual({
      ok: true,
      head: chain.head,
      eventCount: chain.events.length,
    });
    let state = emptyGame(a.stream.gameId);
    let rolls = 0;
    for (let i = 0; i < chain.events.length; i++) {
      const e = chain.events[i];
      expect(eventHash(e)).toBe(e.hash);
      expect(e).toHaveProperty('command');
      if (e.rollNumber !== null) {
        // the roll's faces are those the family says it rolled (five dice: the non-held positions)
        const faces = familyById(state.family).rolledDice!(asFamilyEvent(e.data))!;
        expect(deriveDice({ ...a.stream, rollNumber: e.rollNumber, count: faces.length })).toEqual(faces);
        rolls++;
      }
      if (e.command !== null) {
        // re-running the batch's command yields exactly the stored batch
        let j = i + 1;
        while (j < chain.events.length && chain.events[j].command === null) j++;
        let n = 0;
        const before = state;
        const produced = decideGame(before, e.command as GameCommand, (count) =>
          deriveDice({ ...a.stream, rollNumber: before.rollCount + n++, count }),
        );
        expect(produced).toEqual(
          chain.events
            .slice(i, j)
            .map((x) => ({ type: x.type, seat: x.seat, data: x.data, rollNumber: x.rollNumber, command: x.command })),
        );
      }
      state = evolveGame(state, {
        type: e.type,
        seat: e.seat,
        data: e.data,
        rollNumber: e.rollNumber,
        command: e.command as GameCommand | null,
      });
    }
    expect(rolls).toBeGreaterThanOrEqual(2);
    // a five-dice re-roll with held dice, to illustrate §4.2
    expect(chain.events.some((e) => e.type === 'rolled' && (e.data.held as number[]).length > 0)).toBe(true);
    const [canonicalText] = blocks('fairdice-canonical-vector');
    expect(canonicalJson(envelopeFields(chain.events[2]))).toBe(canonicalText.trimEnd());
  });
});

describe('docs/fairness.md §5 example bundle and §4.4 layouts', () => {
  it('the example bundle is the document the rules produce for that game, and it verifies', () => {
    const [text] = blocks('fairdice-bundle-example');
    const example = JSON.parse(text) as AuditBundle;
    const regenerated = simulateGame({
      ruleSet: 'simple',
      seats: 1,
      organizerSeed: 'tournament-2026',
      clientSeeds: ['alice:lucky#7'],
      maxCommands: 3,
      abandonWhenStalled: true,
      playerIds: ['p-alice'],
      displayNames: ['Zoë 🎲'],
    }).bundle;
    expect(example).toEqual(regenerated);
    // its hashes are this version's: recomputed, not copied
    for (const e of example.events) expect(eventHash(e)).toBe(e.hash);
    const report = verifyBundle(example, { commitment: example.commitment, heads: [example.chainHead] });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report).toMatchObject({ ok: true, diceChecked: true });
  });

  it('§4.4 names every command and event type the rules produce', () => {
    const section = doc.slice(doc.indexOf('### 4.4'), doc.indexOf('### 4.5'));
    const games = [
      simulateGame({ ruleSet: 'penta', seats: 2, organizerSeed: 'o', clientSeeds: ['a', null] }),
      simulateGame({ ruleSet: 'farkle', seats: 3, options: { target: 3000, entryThreshold: 500 }, timeoutEvery: 2 }),
      simulateGame({ ruleSet: 'simple', seats: 1, maxCommands: 2, abandonWhenStalled: true, creatorSeedInStart: true }),
    ];
    const events = new Set<string>(['seatLeft', 'gameAbandoned', 'quit', 'busted', 'penalty', 'passed']);
    const commands = new Set<string>(['leave', 'cancel']);
    for (const { bundle } of games)
      for (const e of bundle.events) {
        events.add(e.type);
        const c = e.command as { type: string; move?: { type: string } } | null;
        if (c) commands.add(c.move ? c.move.type : c.type);
      }
    expect(events.size).toBeGreaterThan(15);
    for (const t of events) expect(section).toContain(`\`${t}\``);
    // moves are written as { type: "score", ... }, lifecycle commands as `create`
    for (const t of commands)
      expect(`${section.includes(`\`${t}\``) || section.includes(`type: "${t}"`)} ${t}`).toBe(`true ${t}`);
  });
});

describe('docs/fairness.md transparency log vector (§7 vector F, §9)', () => {
  const [text] = blocks('fairdice-log-vector');
  const kv = new Map<string, string>();
  for (const raw of (text ?? '').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const m = line.match(/^([\w ]+?\d*(?:\/\d+)?(?: bytes| hash)?): (.+)$/);
    if (!m) throw new Error(`unparsed log vector line: ${line}`);
    kv.set(m[1], m[2]);
  }
  const need = (k: string) => {
    const v = kv.get(k);
    if (v === undefined) throw new Error(`log vector lacks ${k}`);
    return v;
  };
  const leafKeys = [...kv.keys()].filter((k) => /^leaf \d+$/.test(k));
  const leaves: LogLeaf[] = leafKeys.map((k) => {
    const [kind, timestamp, gameId, eventVersion, value] = need(k).split(' ');
    return {
      kind: kind as LogLeaf['kind'],
      timestamp: Number(timestamp),
      gameId,
      eventVersion: Number(eventVersion),
      value,
    };
  });
  const hashes = leaves.map((_, i) => fromHex(need(`leaf ${i} hash`)));

  it('is present, with both kinds of leaf', () => {
    expect(text).toBeDefined();
    expect(need('name')).toBe('F');
    expect(leaves.length).toBeGreaterThanOrEqual(5);
    expect(new Set(leaves.map((l) => l.kind))).toEqual(new Set(['created', 'ended']));
  });

  it('encodes every leaf and hashes it as stated', () => {
    leaves.forEach((leaf, i) => {
      const bytes = encodeLeaf(leaf);
      expect(toHex(bytes)).toBe(need(`leaf ${i} bytes`));
      expect(toHex(leafHash(bytes))).toBe(need(`leaf ${i} hash`));
    });
  });

  it('has the stated roots, key, log id, tree head bytes and signature', () => {
    for (let n = 1; n <= leaves.length; n++) expect(toHex(merkleRoot(hashes.slice(0, n)))).toBe(need(`root ${n}`));
    const priv = fromHex(need('logPrivateKey'));
    expect(toHex(logPublicKey(priv))).toBe(need('logPublicKey'));
    expect(logIdOf(fromHex(need('logPublicKey')))).toBe(need('logId'));
    const [size, timestamp, rootHash] = need('treeHead').split(' ');
    const head = { treeSize: Number(size), timestamp: Number(timestamp), rootHash };
    expect(rootHash).toBe(need(`root ${size}`));
    expect(toHex(encodeTreeHead(head))).toBe(need('treeHead bytes'));
    expect(signTreeHead(head, priv).signature).toBe(need('signature'));
    expect(verifyTreeHeadSignature({ ...head, signature: need('signature') }, need('logPublicKey'))).toBe(true);
  });

  it('has correct inclusion and consistency proofs', () => {
    const proofs = [...kv.keys()].filter((k) => /^(inclusion|consistency) \d+\/\d+$/.test(k));
    expect(proofs.some((k) => k.startsWith('inclusion'))).toBe(true);
    expect(proofs.some((k) => k.startsWith('consistency'))).toBe(true);
    for (const k of proofs) {
      const [, what, a, b] = k.match(/^(\w+) (\d+)\/(\d+)$/)!;
      const m = Number(a);
      const n = Number(b);
      const listed = need(k).split(' ');
      if (what === 'inclusion') {
        expect(inclusionProof(hashes, m, n).map(toHex)).toEqual(listed);
        expect(verifyInclusion(m, n, hashes[m], listed.map(fromHex), fromHex(need(`root ${n}`)))).toBe(true);
      } else {
        expect(consistencyProof(hashes, m, n).map(toHex)).toEqual(listed);
        expect(
          verifyConsistency(m, n, fromHex(need(`root ${m}`)), fromHex(need(`root ${n}`)), listed.map(fromHex)),
        ).toBe(true);
      }
    }
  });
});
