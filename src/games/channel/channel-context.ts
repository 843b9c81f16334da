/**
 * What every part of the command channel shares: the `ws` socket it drives, the service's
 * dependencies and bounds (settings), and the validation pipes built once per server.
 */
import type { IncomingMessage } from 'node:http';
import type { Logger as Pino } from 'pino';
import type { NoFieldsPipe } from '../../common/dto/no-fields.pipe';
import type { strictValidationPipe } from '../../common/errors';
import type { AuthenticatedPlayer } from '../../players/players.types';
import type { StreamLimits } from '../../reliability/streams/stream-limits';
import type { GamesService } from '../games.service';

/** The minimal `ws` socket this module uses. */
export interface Socket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code: number, reason: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
}

/** `ws`'s readyState of an open socket. */
export const OPEN = 1;

/** A charge of one request to a rate-limit bucket (src/reliability/rate-limit). */
export type RateCharge = (key: string) => Promise<{ allowed: boolean; limit: number; resetSeconds: number }>;

export interface CommandChannelSettings {
  /** Moves awaiting their answer on one connection; one more is TOO_MANY_IN_FLIGHT. */
  maxInFlight: number;
  /** Unsent bytes of one connection; past it the connection is dropped (4413). */
  maxBufferedBytes: number;
  /** Time to authenticate (WS_CONNECTION_INIT_TIMEOUT_MS); then 4408. */
  authTimeoutMs: number;
}

export interface CommandChannelDeps {
  games: GamesService;
  authenticate: (token: string) => Promise<AuthenticatedPlayer | null>;
  /**
   * Calls `onRevoked` once the connection's token stops authenticating (PlayersService.watchToken);
   * returns stop. Absent: never (unit tests).
   */
  watchToken?: (token: string, playerId: string, onRevoked: () => void) => () => void;
  limits: StreamLimits;
  addressOf: (req: IncomingMessage) => string;
  /** null: rate limits are off (RATE_LIMIT_ENABLED=false). */
  charge: RateCharge | null;
  settings: CommandChannelSettings;
  logger: Pino;
  /** Called once per connection dropped for not reading. */
  onDropped?: () => void;
}

export interface ChannelContext extends CommandChannelDeps {
  validation: ReturnType<typeof strictValidationPipe>;
  noFields: NoFieldsPipe;
}
