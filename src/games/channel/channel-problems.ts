/** The problems (docs/errors.md) the command channel sends in its `error` frames. */
import { DomainException, normalizeError, type Problem } from '../../common/errors';
import type { ChannelContext } from './channel-context';
import { CHANNEL_PATH } from './frames';

/** A problem the channel itself decides (a bad frame, a bound reached). */
export const problemOf = (
  code: ConstructorParameters<typeof DomainException>[0],
  detail: string,
  extra?: Record<string, unknown>,
): Problem => normalizeError(new DomainException(code, detail, extra), CHANNEL_PATH).problem;

/** The problem of a thrown error, as REST would answer it; an unexpected one is logged. */
export function problemOfError(ctx: ChannelContext, err: unknown): Problem {
  const { problem, unexpected } = normalizeError(err, CHANNEL_PATH);
  if (unexpected) ctx.logger.error({ err, context: 'CommandChannel' }, 'unexpected error on the command channel');
  return problem;
}
