/**
 * The OpenAPI breaking-change check (decision 0020): openapi/openapi.json against the last released
 * document, contracts/released/openapi.json. A break fails unless contracts/openapi-breaking-allowed.json
 * accepts it with a reason; an acceptance that matches nothing fails too (it would hide a later break).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBreakingChanges } from '../helpers/openapi-compat';

const root = join(__dirname, '..', '..');
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const released = read('contracts/released/openapi.json');
const current = read('openapi/openapi.json');
const { accepted } = read('contracts/openapi-breaking-allowed.json') as {
  accepted: Array<{ id?: string; pattern?: string; reason: string }>;
};
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const ids = (a: object, b: object) => findBreakingChanges(a, b).map((c) => c.id);

describe('OpenAPI breaking-change check', () => {
  it('finds no unaccepted break against the released document', () => {
    const breaks = findBreakingChanges(released, current);
    const isAccepted = (c: { id: string; message: string }) =>
      accepted.some((a) => a.id === c.id || (a.pattern !== undefined && new RegExp(a.pattern).test(c.message)));
    expect(breaks.filter((c) => !isAccepted(c)).map((c) => c.message)).toEqual([]);
    const unused = accepted.filter(
      (a) => !breaks.some((c) => a.id === c.id || (a.pattern !== undefined && new RegExp(a.pattern).test(c.message))),
    );
    expect(unused).toEqual([]);
    for (const a of accepted) expect(a.reason.length).toBeGreaterThan(10);
  });

  it('passes the current document against itself and additions', () => {
    expect(findBreakingChanges(current, current)).toEqual([]);
    const added = clone(current);
    added.paths['/v1/new-thing'] = { get: { responses: { 200: { description: 'OK' } } } };
    added.components.schemas.GameView.properties.newField = { type: 'string' };
    added.components.schemas.GameStatus.enum.push('paused');
    expect(findBreakingChanges(current, added)).toEqual([]);
  });

  it('fails a removed operation, response field, enum value or status', () => {
    const changed = clone(current);
    delete changed.paths['/v1/inbox'].get;
    delete changed.components.schemas.GameView.properties.commitment;
    changed.components.schemas.Visibility.enum = ['public'];
    delete changed.paths['/v1/games/{id}'].get.responses['304'];
    expect(ids(current, changed)).toEqual(
      expect.arrayContaining([
        'GET /v1/inbox',
        'POST /v1/games 201.commitment',
        'GET /v1/games 200.items[].visibility enum private',
        'GET /v1/games/{id} 304',
      ]),
    );
  });

  it('fails a field removed from one event type of the union', () => {
    const changed = clone(current);
    delete changed.components.schemas.FiveDiceRolledEventData.properties.held;
    changed.components.schemas.FiveDiceRolledEventData.required = ['type', 'seat', 'dice', 'rollInTurn'];
    const found = findBreakingChanges(current, changed);
    expect(found.map((c) => c.message).join('\n')).toMatch(/events.*variant changed incompatibly.*held/);
  });

  it('fails a type change and a new required request field', () => {
    const changed = clone(current);
    changed.components.schemas.GameView.properties.version = { type: 'string' };
    changed.components.schemas.JoinGameInput.required = ['seat'];
    const found = ids(current, changed);
    expect(found).toEqual(
      expect.arrayContaining(['GET /v1/games/{id} 200.version type', 'POST /v1/games/{id}/join body.seat required']),
    );
  });
});
