/**
 * The tournament test vectors of docs/fairness.md §10.5, parsed out of the document and recomputed
 * twice: with the library (packages/core/src/fairness/tournament.ts) and, independently, with
 * node:crypto's HMAC following the text of §10 alone. The document cannot drift from the code.
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drawKey, duplicateFaces, duplicateMessage, roundSeed, roundSeedMessage, tableDraw } from './tournament';

const doc = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'fairness.md'), 'utf8');
const blocks = [...doc.matchAll(/^```fairdice-tournament-vector\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => m[1]);

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const lp = (s: string | Buffer) => {
  const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  return Buffer.concat([u32(b.length), b]);
};
/** §3.3 on the blocks of §10.2, written from the document. */
function independentFaces(roundSeedHex: string, tid: string, round: number, g: number, t: number, n: number): number[] {
  const faces: number[] = [];
  for (let b = 0; faces.length < 5; b++) {
    const out = createHmac('sha256', Buffer.from(roundSeedHex, 'hex'))
      .update(Buffer.concat([lp('fairdice/duplicate/v1'), lp(tid), u32(round), u32(g), u32(t), u32(n), u32(b)]))
      .digest();
    for (const byte of out) if (byte < 252 && faces.length < 5) faces.push((byte % 6) + 1);
  }
  return faces;
}

const IDS = [1, 2, 3, 4, 5, 6, 7].map((d) => {
  const c = String(d);
  return `${c.repeat(8)}-${c.repeat(4)}-4${c.repeat(3)}-8${c.repeat(3)}-${c.repeat(12)}`;
});

describe('docs/fairness.md §10.5 tournament vectors', () => {
  it('the document has the vectors', () => expect(blocks.length).toBeGreaterThanOrEqual(2));

  for (const text of blocks) {
    const kv = new Map<string, string>();
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      const i = line.lastIndexOf(': ');
      if (i < 0) throw new Error(`unparsed vector line: ${line}`);
      kv.set(line.slice(0, i), line.slice(i + 2));
    }
    const need = (k: string) => {
      const v = kv.get(k);
      if (v === undefined) throw new Error(`vector lacks ${k}`);
      return v;
    };
    const name = need('name');
    it(`${name}: commitment, round seed, duplicate faces, draw keys and draw`, () => {
      const seedHex = need('tournamentSeed');
      const tid = need('tournamentId');
      const round = Number(need('round'));
      const seeds = need('seeds').split(' ');
      const tseed = Buffer.from(seedHex, 'hex');
      expect(createHash('sha256').update(tseed).digest('hex')).toBe(need('commitment'));

      const independentMessage = Buffer.concat([
        lp('fairdice/tournament-round/v1'),
        lp(tid),
        u32(round),
        u32(seeds.length),
        ...seeds.map((s) => lp(s)),
      ]);
      if (kv.has('roundSeedMessage')) {
        expect(independentMessage.toString('hex')).toBe(kv.get('roundSeedMessage'));
        expect(Buffer.from(roundSeedMessage({ tournamentId: tid, round, seeds })).toString('hex')).toBe(
          kv.get('roundSeedMessage'),
        );
      }
      const rs = Buffer.from(roundSeed({ tournamentSeed: tseed, tournamentId: tid, round, seeds })).toString('hex');
      expect(rs).toBe(need('roundSeed'));
      expect(createHmac('sha256', tseed).update(independentMessage).digest('hex')).toBe(rs);

      let checked = 0;
      for (const [key, value] of kv) {
        let m: RegExpMatchArray | null;
        if ((m = key.match(/^faces (\d+)\/(\d+)\/(\d+)$/))) {
          const [g, t, n] = [Number(m[1]), Number(m[2]), Number(m[3])];
          const want = value.split(' ').map(Number);
          expect(
            duplicateFaces(
              { roundSeed: Buffer.from(rs, 'hex'), tournamentId: tid, round },
              { game: g, turn: t, roll: n },
            ),
          ).toEqual(want);
          expect(independentFaces(rs, tid, round, g, t, n)).toEqual(want);
          checked++;
        } else if ((m = key.match(/^duplicateMessage (\d+)\/(\d+)\/(\d+) block (\d+)$/))) {
          const at = { game: Number(m[1]), turn: Number(m[2]), roll: Number(m[3]) };
          expect(Buffer.from(duplicateMessage({ tournamentId: tid, round }, at, Number(m[4]))).toString('hex')).toBe(
            value,
          );
          checked++;
        } else if ((m = key.match(/^drawKey (.+)$/))) {
          expect(drawKey(Buffer.from(rs, 'hex'), m[1])).toBe(value);
          expect(
            createHmac('sha256', Buffer.from(rs, 'hex'))
              .update(Buffer.concat([lp('fairdice/table-draw/v1'), lp(m[1])]))
              .digest('hex'),
          ).toBe(value);
          checked++;
        }
      }
      const draw = tableDraw(Buffer.from(rs, 'hex'), IDS, 2, 3)!;
      expect(draw.map((table) => table.map((id) => id.slice(0, 4)).join(' ')).join(' | ')).toBe(need('draw'));
      expect(checked).toBeGreaterThan(5);
    });
  }
});
