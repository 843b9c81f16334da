/**
 * A client frame read as REST reads a body: JSON text only, bounded nesting, no unsafe numbers,
 * then the frame's zod schema (frames.ts).
 */
import type { Problem } from '../../common/errors';
import {
  findUnsafeNumber,
  jsonNestingExceeds,
  jsonTooDeep,
  MAX_JSON_DEPTH,
  unsafeNumber,
} from '../../reliability/http/json-body';
import type { ChannelContext } from './channel-context';
import { problemOf, problemOfError } from './channel-problems';
import { CLIENT_FRAME, type ClientFrame, idOf, zodProblems } from './frames';

export type ParsedFrame = { ok: true; frame: ClientFrame } | { ok: false; id: string | null; problem: Problem };

export function parseFrame(ctx: ChannelContext, data: Buffer, isBinary: boolean): ParsedFrame {
  if (isBinary) return { ok: false, id: null, problem: problemOf('MALFORMED_REQUEST', 'Frames are JSON text frames') };
  const text = data.toString('utf8');
  if (jsonNestingExceeds(text, MAX_JSON_DEPTH))
    return { ok: false, id: null, problem: problemOfError(ctx, jsonTooDeep()) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, id: null, problem: problemOf('MALFORMED_REQUEST', 'The frame is not JSON') };
  }
  const unsafe = findUnsafeNumber(value);
  if (unsafe) return { ok: false, id: idOf(value), problem: problemOfError(ctx, unsafeNumber(unsafe)) };
  const result = CLIENT_FRAME.safeParse(value);
  if (!result.success) {
    const errors = zodProblems(result.error);
    const detail = errors.map((e) => `${e.field}: ${e.problems.join(', ')}`).join('; ');
    return { ok: false, id: idOf(value), problem: problemOf('VALIDATION_FAILED', detail, { errors }) };
  }
  return { ok: true, frame: result.data };
}
