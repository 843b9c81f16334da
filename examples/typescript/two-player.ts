/**
 * A complete two-player game of the `simple` five-dice rule set through @fairdice/client:
 * register two players, create the game, note the commitment, give each player's seed after it,
 * join, start, play every turn to the end with a simple policy (roll once, score the best allowed
 * box), follow the game's Server-Sent Events meanwhile, then check what the end reveals:
 * SHA-256(serverSeed) = the commitment noted at the start, and the audit bundle matches the game.
 *
 *   FAIRDICE_URL=http://localhost:3000 npx tsx examples/typescript/two-player.ts
 *
 * (CI bundles it with esbuild and runs it against a fresh server: test/examples/examples.e2e-spec.ts.)
 */
import {
  createFairdiceClient,
  gameEventStream,
  unwrap,
  type FairdiceRestClient,
  type Game,
  type GameEvent,
} from '@fairdice/client';

interface Player {
  name: string;
  id: string;
  token: string;
  api: FairdiceRestClient;
}

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** 16 random bytes as hex: a client seed only this player knows until the game ends. */
const randomSeed = () => hex(globalThis.crypto.getRandomValues(new Uint8Array(16)));

async function register(baseUrl: string, name: string): Promise<Player> {
  const anonymous = createFairdiceClient({ baseUrl });
  const registered = unwrap(await anonymous.POST('/v1/players', { body: { displayName: name } }));
  return {
    name,
    id: registered.player.id,
    token: registered.token,
    api: createFairdiceClient({ baseUrl, token: registered.token }),
  };
}

/** The policy: the allowed open box that scores most (the first such box in sheet order on a tie). */
function bestBox(game: Game) {
  const options = game.fiveDice?.scoreOptions;
  if (!options) throw new Error('no score options for the player on turn');
  const allowed = options.boxes.filter((b) => b.allowed);
  const best = allowed.reduce((a, b) => (b.points + b.bonus > a.points + a.bonus ? b : a));
  return best.box;
}

export async function playTwoPlayerGame(
  baseUrl: string,
  log: (line: string) => void = console.log,
): Promise<{ game: Game; events: GameEvent[] }> {
  const ada = await register(baseUrl, 'Ada');
  const bob = await register(baseUrl, 'Bob');
  log(`registered ${ada.name} (${ada.id}) and ${bob.name} (${bob.id})`);

  let game = unwrap(await ada.api.POST('/v1/games', { body: { ruleSet: 'simple', seats: 2, visibility: 'public' } }));
  const commitment = game.commitment;
  const id = game.id;
  log(`game ${id} created; commitment ${commitment}`);

  // Follow the game's events while it is played (resumes by itself if the connection drops).
  const streamed: GameEvent[] = [];
  const following = (async () => {
    for await (const event of gameEventStream({ baseUrl, gameId: id, token: ada.token })) streamed.push(event);
  })();

  // Seeds only after the commitment is known (docs/fairness.md).
  const path = { path: { id } };
  unwrap(await ada.api.PUT('/v1/games/{id}/seeds', { params: path, body: { clientSeed: randomSeed() } }));
  unwrap(await bob.api.POST('/v1/games/{id}/join', { params: path, body: { clientSeed: randomSeed() } }));
  game = unwrap(await ada.api.POST('/v1/games/{id}/start', { params: path }));
  log(`started: ${game.status}, ${game.seats.map((s) => s.displayName).join(' vs ')}`);

  const byId = new Map([ada, bob].map((p) => [p.id, p]));
  while (game.status === 'playing') {
    const player = byId.get(game.currentPlayerId ?? '');
    if (!player) throw new Error(`unexpected player on turn: ${game.currentPlayerId}`);
    // Every command carries an Idempotency-Key (added by the client), so a retry never rolls twice.
    game = unwrap(await player.api.POST('/v1/games/{id}/roll', { params: path, body: { hold: [] } }));
    const box = bestBox(game);
    game = unwrap(await player.api.POST('/v1/games/{id}/score', { params: path, body: { box } }));
  }
  for (const s of game.standings ?? []) log(`rank ${s.rank}: ${s.displayName} ${s.total}`);

  await following;
  if (streamed.length !== game.version || streamed.some((e, i) => e.version !== i + 1))
    throw new Error(`the stream carried ${streamed.length} events, the game has ${game.version}`);
  log(`streamed all ${streamed.length} events, ending with ${streamed[streamed.length - 1].type}`);

  // The end reveals the server seed: it must be the one committed to before any seed was given.
  if (!game.serverSeed) throw new Error('the server seed was not revealed');
  const digest = await globalThis.crypto.subtle.digest('SHA-256', Uint8Array.from(Buffer.from(game.serverSeed, 'hex')));
  if (hex(digest) !== commitment) throw new Error('SHA-256(serverSeed) differs from the commitment');
  log('SHA-256(serverSeed) equals the commitment');

  const audit = unwrap(await ada.api.GET('/v1/games/{id}/audit', { params: path }));
  if (audit.commitment !== commitment || audit.chainHead !== game.chainHead || audit.events.length !== game.version)
    throw new Error('the audit bundle does not match the game');
  log(`audit bundle: ${audit.events.length} events, chain head ${audit.chainHead}; verify it with npx fairdice-verify`);
  return { game, events: streamed };
}

if (require.main === module) {
  playTwoPlayerGame(process.env.FAIRDICE_URL ?? 'http://localhost:3000').catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
